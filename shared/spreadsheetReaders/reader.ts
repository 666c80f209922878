/**
 * The one spreadsheet reader. The server's parse worker, the desktop's spreadsheet worker thread
 * and the web app's Web Worker all read files through `readSpreadsheetBatches`, so a file's cells
 * are the same text wherever it is opened. Environment-free: the caller hands in the file as a
 * `SpreadsheetSource` (random reads and ranged chunks) and the two inflaters of its platform
 * (Node's zlib, or the browser's DecompressionStream); everything else is here.
 *
 * The rule for cell text (one rule, for every format):
 *  - text cells as written, trimmed; an empty cell is '' and trailing empty cells are dropped, so
 *    an empty row is [] (callers skip it; its line still counts);
 *  - numbers as written, never in exponent form (`numberText`): a phone number saved as a number
 *    reads as its digits; a number's format is not applied, so `7` formatted `000` reads `7`, while
 *    `007` typed as text (or in a CSV) keeps its zeros;
 *  - a number formatted as a date or a time reads as the date the sheet shows (`dateText`:
 *    `2024-05-06`, or `2024-05-06 09:05`);
 *  - booleans `TRUE`/`FALSE`, errors as written (`#DIV/0!`), formulas by their cached result ('' when
 *    the writer stored none), rich text by its runs joined, phonetic guides left out;
 *  - a CSV's cells are text: `TRUE`, `007` and `2024-05-06` stay as written.
 *
 * Files: CSV (UTF-8, UTF-16 by its mark, else windows-1252; comma, semicolon or tab), gzip CSV,
 * .xlsx (the zip's central directory is read from the end of the file and checked before anything
 * is inflated; the first worksheet streams through the sheet parser) and legacy .xls (SheetJS,
 * read whole under a cap, imported only when such a file comes).
 */
import { fillMessage, messages } from '../messages';
import { createCsvParser, type RowSink } from './csv';
import {
  createTextDecoder,
  csvEncoding,
  isCsvText,
  LEGACY_XLS_MAX_BYTES,
  LOCAL_HEADER_SIZE,
  LOCAL_ZIP_LIMITS,
  parseZipDirectory,
  sniffSpreadsheetKind,
  ZIP_TAIL_BYTES,
  zipDirectoryLocation,
  zipEntryDataOffset,
  ZipProblem,
  type LocalZipLimits,
  type ZipEntry,
} from './files';
import { createSharedStringsParser, createSheetParser, parseDateStyles, parseWorkbook, relationshipTarget, type ChunkParser } from './xlsx';

export type ReadableSpreadsheetKind = 'csv' | 'csv-gzip' | 'xlsx' | 'xls';

/** A file as the reader sees it: its size, random reads (zip directory, headers) and ranged chunks. */
export interface SpreadsheetSource {
  readonly size: number;
  /** Up to `length` bytes from `position` (fewer at the end of the file). */
  read(position: number, length: number): Promise<Uint8Array>;
  /** The bytes from `start` up to `end` (exclusive), in chunks of the platform's choosing. */
  chunks(start: number, end: number): AsyncIterable<Uint8Array>;
}

/** The platform's decompressors: zip's raw deflate and gzip, chunks in, chunks out. */
export interface SpreadsheetInflaters {
  inflateRaw(input: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array>;
  gunzip(input: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array>;
}

export type SpreadsheetRefusalReason =
  | 'unknown_type'
  | 'unreadable'
  | 'encrypted'
  | 'no_sheet'
  | 'too_large_unpacked'
  | 'too_heavy'
  | 'too_many_columns'
  | 'cancelled';

/** A file the reader will not read, with the catalogue's words for why (callers may choose their own by `reason`). */
export class SpreadsheetRefusal extends Error {
  constructor(
    public readonly reason: SpreadsheetRefusalReason,
    message: string,
  ) {
    super(message);
    this.name = 'SpreadsheetRefusal';
  }
}

const refusalTexts: Record<Exclude<SpreadsheetRefusalReason, 'too_many_columns'>, string> = {
  unknown_type: messages.spreadsheets.unknownFileType,
  unreadable: messages.sending.fileUnreadable,
  encrypted: messages.sending.encryptedWorkbook,
  no_sheet: messages.spreadsheets.noSheet,
  too_large_unpacked: messages.sending.fileTooLargeUnpacked,
  too_heavy: messages.sending.fileTooHeavy,
  cancelled: messages.sending.parseCancelled,
};

export function refuse(reason: Exclude<SpreadsheetRefusalReason, 'too_many_columns'>): SpreadsheetRefusal {
  return new SpreadsheetRefusal(reason, refusalTexts[reason]);
}

/** Rows read from one chunk of the file, with how far into the file the reader is. */
export interface SpreadsheetBatch {
  /** Each row's cells by the rule above ([] for an empty row). */
  rows: string[][];
  /** Each row's line as the user sees it (the header is usually 1). */
  lines: number[];
  /** Bytes of the file read so far (compressed bytes for gzip and .xlsx), for progress. */
  bytes: number;
  totalBytes: number;
}

export interface SpreadsheetReadOptions {
  /** The kind the caller already decided; otherwise it is sniffed from the first bytes. */
  kind?: ReadableSpreadsheetKind;
  /** The user's file name: an OLE container named .xlsx is a password-protected workbook. */
  filename?: string;
  signal?: AbortSignal;
  zipLimits?: LocalZipLimits;
  /** Columns a row may fill; a value further right refuses the file. */
  maxColumns?: number;
}

export const DEFAULT_MAX_COLUMNS = 1_000;
/** The start of a CSV that decides its encoding. */
const ENCODING_HEAD = 1024 * 1024;
const SNIFF_BYTES = 4096;
/**
 * Decoded text fed to a parser per step, its rows handed on after each: rows that live only until
 * the caller has seen them die young (cheap to collect), where a whole chunk's rows would outlive
 * a collection and be promoted.
 */
const TEXT_STEP = 64 * 1024;
/** Rows handed on per batch of an .xls (read whole, so it has no chunks of its own). */
const XLS_ROWS_PER_BATCH = 5_000;

/** Cells by the rule: trimmed, trailing empty cells dropped (in place). */
function cleanCells(cells: string[]): string[] {
  let width = 0;
  for (let i = 0; i < cells.length; i += 1) {
    const trimmed = (cells[i] ?? '').trim();
    cells[i] = trimmed;
    if (trimmed !== '') width = i + 1;
  }
  cells.length = width;
  return cells;
}

function tooManyColumns(maxColumns: number): SpreadsheetRefusal {
  return new SpreadsheetRefusal('too_many_columns', fillMessage(messages.sending.tooManyColumns, { max: maxColumns }));
}

/** Collects a parser's rows until the reader hands them on; a value past `maxColumns` refuses the file. */
function rowCollector(maxColumns: number): { sink: RowSink; take(bytes: number, totalBytes: number): SpreadsheetBatch | null } {
  let rows: string[][] = [];
  let lines: number[] = [];
  return {
    sink: (cells, line) => {
      const clean = cleanCells(cells);
      if (clean.length > maxColumns) throw tooManyColumns(maxColumns);
      rows.push(clean);
      lines.push(line);
    },
    take(bytes, totalBytes) {
      if (rows.length === 0) return null;
      const batch = { rows, lines, bytes, totalBytes };
      rows = [];
      lines = [];
      return batch;
    },
  };
}

function checkAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw refuse('cancelled');
}

/** The kind of a file by its first bytes (and its name), refused when it is no spreadsheet. */
export async function spreadsheetSourceKind(source: SpreadsheetSource, filename = ''): Promise<ReadableSpreadsheetKind> {
  const kind = sniffSpreadsheetKind(await source.read(0, Math.min(source.size, SNIFF_BYTES)));
  if (kind === 'legacy-xls') {
    // Excel writes a password-protected .xlsx inside an OLE container.
    if (/\.xlsx$/i.test(filename)) throw refuse('encrypted');
    return 'xls';
  }
  if (kind === 'unknown') throw refuse('unknown_type');
  return kind;
}

/**
 * Every row of the file's first sheet, in batches (one per chunk of the file), by the one rule for
 * cell text. Throws `SpreadsheetRefusal` for a file it will not read; a parser library's own
 * failure (a corrupt workbook) comes out as the refusal 'unreadable'. Stopping the iteration
 * early stops the read.
 */
export async function* readSpreadsheetBatches(
  source: SpreadsheetSource,
  inflaters: SpreadsheetInflaters,
  options: SpreadsheetReadOptions = {},
): AsyncGenerator<SpreadsheetBatch, ReadableSpreadsheetKind> {
  const kind = options.kind ?? (await spreadsheetSourceKind(source, options.filename));
  try {
    if (kind === 'xlsx') yield* xlsxBatches(source, inflaters, options);
    else if (kind === 'xls') yield* xlsBatches(source, options);
    else yield* csvBatches(source, inflaters, kind === 'csv-gzip', options);
  } catch (error) {
    if (error instanceof SpreadsheetRefusal) throw error;
    if (error instanceof ZipProblem) {
      if (error.reason === 'too_large') throw refuse('too_large_unpacked');
      if (error.reason === 'encrypted') throw refuse('encrypted');
    }
    if (options.signal?.aborted) throw refuse('cancelled');
    throw refuse('unreadable');
  }
  return kind;
}

/** Counts the bytes of a chunk stream as they pass. */
async function* counted(chunks: AsyncIterable<Uint8Array>, onBytes: (bytes: number) => void): AsyncGenerator<Uint8Array> {
  let total = 0;
  for await (const chunk of chunks) {
    total += chunk.length;
    onBytes(total);
    yield chunk;
  }
}

// ---------------------------------------------------------------------------------------------
// CSV

async function* csvBatches(source: SpreadsheetSource, inflaters: SpreadsheetInflaters, gzip: boolean, options: SpreadsheetReadOptions): AsyncGenerator<SpreadsheetBatch> {
  const collector = rowCollector(options.maxColumns ?? DEFAULT_MAX_COLUMNS);
  const parser = createCsvParser(collector.sink);
  let bytesRead = 0;
  const raw = counted(source.chunks(0, source.size), (bytes) => (bytesRead = bytes));
  const text = gzip ? inflaters.gunzip(raw) : raw;
  type Decode = (bytes: Uint8Array, final?: boolean) => string;
  let decode: Decode | null = null;
  let head: Uint8Array[] = [];
  let headBytes = 0;
  /** Decides the encoding from the head, parses it, and answers the decoder for the rest. */
  const start = (): Decode => {
    const first = concat(head, headBytes);
    head = [];
    if (gzip && !isCsvText(first.subarray(0, SNIFF_BYTES))) throw refuse('unknown_type');
    const chosen = createTextDecoder(csvEncoding(first));
    parser.push(chosen(first));
    return chosen;
  };
  for await (const bytes of text) {
    checkAborted(options.signal);
    if (decode) {
      yield* stepThrough(decode(bytes), parser, collector, () => bytesRead, source.size);
      continue;
    }
    head.push(bytes);
    headBytes += bytes.length;
    if (headBytes >= ENCODING_HEAD) {
      decode = start();
      const batch = collector.take(bytesRead, source.size);
      if (batch) yield batch;
    }
  }
  decode ??= start();
  parser.push(decode(new Uint8Array(0), true));
  parser.end();
  const last = collector.take(bytesRead, source.size);
  if (last) yield last;
}

/** Feeds text to a parser a step at a time, handing on the rows of each step. */
function* stepThrough(text: string, parser: ChunkParser, collector: ReturnType<typeof rowCollector>, bytes: () => number, totalBytes: number): Generator<SpreadsheetBatch> {
  for (let at = 0; at < text.length; at += TEXT_STEP) {
    parser.push(at === 0 && text.length <= TEXT_STEP ? text : text.slice(at, at + TEXT_STEP));
    const batch = collector.take(bytes(), totalBytes);
    if (batch) yield batch;
  }
}

function concat(parts: Uint8Array[], length: number): Uint8Array {
  if (parts.length === 1 && parts[0]) return parts[0];
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// .xlsx

async function zipEntries(source: SpreadsheetSource, limits: LocalZipLimits): Promise<Map<string, ZipEntry>> {
  const tailLength = Math.min(source.size, ZIP_TAIL_BYTES);
  const location = zipDirectoryLocation(await source.read(source.size - tailLength, tailLength), source.size);
  const directory = await source.read(location.offset, location.size);
  const entries = parseZipDirectory(directory, location.entries, location.offset, limits);
  return new Map(entries.map((entry) => [entry.name, entry]));
}

/** An entry's inflated bytes, stopped with 'too_large' past its declared size and 'unreadable' short of it. */
async function* entryChunks(source: SpreadsheetSource, inflaters: SpreadsheetInflaters, entry: ZipEntry, onCompressed?: (bytes: number) => void): AsyncGenerator<Uint8Array> {
  const start = zipEntryDataOffset(await source.read(entry.localHeaderOffset, LOCAL_HEADER_SIZE), entry);
  if (start + entry.compressedSize > source.size) throw new ZipProblem('unreadable', `${entry.name} runs past the end of the file`);
  const raw = counted(source.chunks(start, start + entry.compressedSize), (bytes) => onCompressed?.(bytes));
  const inflated = entry.method === 0 ? raw : inflaters.inflateRaw(raw);
  let total = 0;
  for await (const chunk of inflated) {
    total += chunk.length;
    if (total > entry.uncompressedSize) throw new ZipProblem('too_large', `${entry.name} inflates past its declared size`);
    yield chunk;
  }
  // A stream that ended short of its declared size was cut (or lied the other way).
  if (total !== entry.uncompressedSize) throw new ZipProblem('unreadable', `${entry.name} size differs from its header`);
}

/** A small part held whole (workbook, relations, styles, shared strings), within the held-part limit. */
async function feedEntry(source: SpreadsheetSource, inflaters: SpreadsheetInflaters, entry: ZipEntry, parser: ChunkParser, limits: LocalZipLimits, signal?: AbortSignal): Promise<void> {
  if (entry.uncompressedSize > limits.maxHeldPartBytes) throw new ZipProblem('too_large', entry.name);
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of entryChunks(source, inflaters, entry)) {
    checkAborted(signal);
    parser.push(decoder.decode(chunk, { stream: true }));
  }
  parser.push(decoder.decode());
  parser.end();
}

async function entryText(source: SpreadsheetSource, inflaters: SpreadsheetInflaters, entry: ZipEntry | undefined, limits: LocalZipLimits, signal?: AbortSignal): Promise<string | null> {
  if (!entry) return null;
  let text = '';
  await feedEntry(source, inflaters, entry, { push: (chunk) => (text += chunk), end: () => undefined }, limits, signal);
  return text;
}

async function* xlsxBatches(source: SpreadsheetSource, inflaters: SpreadsheetInflaters, options: SpreadsheetReadOptions): AsyncGenerator<SpreadsheetBatch> {
  const limits = options.zipLimits ?? LOCAL_ZIP_LIMITS;
  const entries = await zipEntries(source, limits);
  const workbookXml = await entryText(source, inflaters, entries.get('xl/workbook.xml'), limits, options.signal);
  if (workbookXml === null) throw refuse('unreadable');
  const workbook = parseWorkbook(workbookXml);
  const relsXml = (await entryText(source, inflaters, entries.get('xl/_rels/workbook.xml.rels'), limits, options.signal)) ?? '';
  const target = workbook.firstSheetRelationship === null ? null : relationshipTarget(relsXml, workbook.firstSheetRelationship);
  const sheet = (target !== null ? entries.get(target) : undefined) ?? entries.get('xl/worksheets/sheet1.xml');
  if (!sheet) throw refuse('no_sheet');
  const stylesXml = await entryText(source, inflaters, entries.get('xl/styles.xml'), limits, options.signal);
  const dateStyles = stylesXml === null ? [] : parseDateStyles(stylesXml);
  const sharedStrings = createSharedStringsParser();
  const stringsEntry = entries.get('xl/sharedStrings.xml');
  if (stringsEntry) await feedEntry(source, inflaters, stringsEntry, sharedStrings, limits, options.signal);
  const maxColumns = options.maxColumns ?? DEFAULT_MAX_COLUMNS;
  const collector = rowCollector(maxColumns);
  const parser = createSheetParser(
    {
      sharedStrings: sharedStrings.strings,
      dateStyles,
      date1904: workbook.date1904,
      maxColumns,
      onTooWide: () => {
        throw tooManyColumns(maxColumns);
      },
    },
    collector.sink,
  );
  let compressed = 0;
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of entryChunks(source, inflaters, sheet, (bytes) => (compressed = bytes))) {
    checkAborted(options.signal);
    yield* stepThrough(decoder.decode(chunk, { stream: true }), parser, collector, () => compressed, sheet.compressedSize);
  }
  parser.push(decoder.decode());
  parser.end();
  const last = collector.take(compressed, sheet.compressedSize);
  if (last) yield last;
}

// ---------------------------------------------------------------------------------------------
// .xls

async function* xlsBatches(source: SpreadsheetSource, options: SpreadsheetReadOptions): AsyncGenerator<SpreadsheetBatch> {
  if (source.size > LEGACY_XLS_MAX_BYTES) throw refuse('too_heavy');
  const { legacyRowsOrRefusal } = await import('./legacyXls');
  const content = await source.read(0, source.size);
  const collector = rowCollector(options.maxColumns ?? DEFAULT_MAX_COLUMNS);
  let line = 0;
  // SheetJS reads the whole workbook on the first step; the rest only walks its first sheet.
  for (const cells of legacyRowsOrRefusal(content, (text) => new SpreadsheetRefusal(text === messages.sending.encryptedWorkbook ? 'encrypted' : 'unreadable', text))) {
    line += 1;
    collector.sink(cells, line);
    if (line % XLS_ROWS_PER_BATCH === 0) {
      checkAborted(options.signal);
      const batch = collector.take(source.size, source.size);
      if (batch) yield batch;
    }
  }
  const last = collector.take(source.size, source.size);
  if (last) yield last;
}

// ---------------------------------------------------------------------------------------------
// Sources

/** A file already in memory as a source (the server's small uploads, tests). */
export function memorySource(bytes: Uint8Array, chunkSize = 1024 * 1024): SpreadsheetSource {
  return {
    size: bytes.length,
    read: async (position, length) => bytes.subarray(position, Math.min(bytes.length, position + length)),
    async *chunks(start, end) {
      for (let at = start; at < end; at += chunkSize) yield bytes.subarray(at, Math.min(end, at + chunkSize));
    },
  };
}

/**
 * Every row of a source at once, empty rows left out, for callers holding small files (tests,
 * previews): the rows the batches hold, in order.
 */
export async function readAllRows(source: SpreadsheetSource, inflaters: SpreadsheetInflaters, options: SpreadsheetReadOptions = {}): Promise<string[][]> {
  const rows: string[][] = [];
  for await (const batch of readSpreadsheetBatches(source, inflaters, options)) for (const row of batch.rows) if (row.length > 0) rows.push(row);
  return rows;
}
