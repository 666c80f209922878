/**
 * A spreadsheet file on disk read row by row in Node (the desktop's parse worker; any Node thread):
 * CSV (gzip-compressed or not) streams through the shared CSV parser; an .xlsx has its zip
 * central directory read from the end of the file, its small parts (workbook, relations, styles,
 * shared strings) inflated into memory within limits, and its first worksheet inflated as a stream
 * into the shared sheet parser, so the sheet itself is never held whole.
 *
 * A legacy .xls (BIFF in an OLE container) cannot be streamed: it is read whole, under a size cap,
 * by the one shared reader (shared/spreadsheetReaders/legacyXls.ts, SheetJS), imported only when
 * such a file comes, in the worker thread that runs this reader.
 *
 * Zip bombs: the central directory's sizes and ratios are checked before anything is inflated
 * (shared/spreadsheetReaders/files.ts), and every inflated stream is counted and stopped as soon as
 * it passes the size its entry declared, so a lying archive costs at most what it declared.
 */
import { createReadStream } from 'node:fs';
import { open, readFile, stat, type FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { createGunzip, createInflateRaw } from 'node:zlib';
import { fillMessage, messages } from '@shared/messages';
import { createCsvParser, type RowSink } from '@shared/spreadsheetReaders/csv';
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
} from '@shared/spreadsheetReaders/files';
import { createSharedStringsParser, createSheetParser, parseDateStyles, parseWorkbook, relationshipTarget, type ChunkParser } from '@shared/spreadsheetReaders/xlsx';

export type ReadableSpreadsheetKind = 'csv' | 'csv-gzip' | 'xlsx' | 'xls';

export interface SpreadsheetReadOptions {
  /** Each row's cells (as read; the caller trims and skips empty rows) and its line in the file. */
  onRow: RowSink;
  /** Bytes of the file read so far (compressed bytes for gzip and .xlsx), for progress. */
  onBytes?: (bytes: number, totalBytes: number) => void;
  /**
   * Awaited after each chunk's rows: a caller writing the rows out waits here for its output to
   * drain, so a slow disk slows the read instead of piling rows up in memory.
   */
  afterChunk?: () => Promise<void> | void;
  signal?: AbortSignal;
  zipLimits?: LocalZipLimits;
  /** Columns a row may fill (Excel's own limit is 16,384). */
  maxColumns?: number;
}

export const DEFAULT_MAX_COLUMNS = 1_000;
/** Read size of the file streams: large reads keep the per-chunk costs small. */
const READ_CHUNK = 1024 * 1024;
/** The start of a CSV that decides its encoding. */
const ENCODING_HEAD = 1024 * 1024;
const SNIFF_BYTES = 4096;

/** Errors that carry a catalogue text (what the bridge shows the user); anything else is "unreadable". */
const catalogueErrors = new WeakSet<Error>();

/** An Error whose message is a catalogue text, marked as such. */
export function spreadsheetError(message: string): Error {
  const error = new Error(message);
  catalogueErrors.add(error);
  return error;
}

const fail = spreadsheetError;

export function isSpreadsheetError(error: unknown): error is Error {
  return error instanceof Error && catalogueErrors.has(error);
}

async function readAt(file: FileHandle, position: number, length: number): Promise<Uint8Array> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await file.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

/** The kind of the file at `path` by its first bytes; refuses what cannot be read with the catalogue's words. */
export async function spreadsheetKind(path: string, filename = path): Promise<ReadableSpreadsheetKind> {
  const file = await open(path, 'r');
  try {
    const kind = sniffSpreadsheetKind(await readAt(file, 0, SNIFF_BYTES));
    // Excel writes a password-protected .xlsx inside an OLE container (the server decides alike).
    if (kind === 'legacy-xls') {
      if (/\.xlsx$/i.test(filename)) throw fail(messages.sending.encryptedWorkbook);
      return 'xls';
    }
    if (kind === 'unknown') throw fail(messages.spreadsheets.unknownFileType);
    return kind;
  } finally {
    await file.close();
  }
}

/**
 * Reads every row of the file's first sheet into `onRow`. Answers the kind it read. Throws an
 * Error with a catalogue text for a file it cannot read.
 */
export async function readSpreadsheet(path: string, options: SpreadsheetReadOptions): Promise<ReadableSpreadsheetKind> {
  const kind = await spreadsheetKind(path);
  // The caller's own errors (a mapping it refuses, a full disk) pass through as they are.
  const callerErrors = new WeakSet<object>();
  const passOn = <T>(run: () => T): T => {
    try {
      return run();
    } catch (error) {
      if (error instanceof Error) callerErrors.add(error);
      throw error;
    }
  };
  const { afterChunk } = options;
  const guarded: SpreadsheetReadOptions = {
    ...options,
    onRow: (cells, line) => passOn(() => options.onRow(cells, line)),
    afterChunk:
      afterChunk &&
      (async () => {
        try {
          await afterChunk();
        } catch (error) {
          if (error instanceof Error) callerErrors.add(error);
          throw error;
        }
      }),
  };
  try {
    if (kind === 'xlsx') await readXlsx(path, guarded);
    else if (kind === 'xls') await readXls(path, guarded);
    else await readCsv(path, kind === 'csv-gzip', guarded);
    return kind;
  } catch (error) {
    if (isSpreadsheetError(error) || (error instanceof Error && callerErrors.has(error))) throw error;
    if (error instanceof ZipProblem) {
      if (error.reason === 'too_large') throw fail(messages.sending.fileTooLargeUnpacked);
      if (error.reason === 'encrypted') throw fail(messages.sending.encryptedWorkbook);
    }
    if (options.signal?.aborted) throw fail(messages.sending.parseCancelled);
    throw fail(messages.spreadsheets.unreadable);
  }
}

function abortable(stream: Readable, signal: AbortSignal | undefined): void {
  if (!signal) return;
  if (signal.aborted) stream.destroy(new Error('aborted'));
  else signal.addEventListener('abort', () => stream.destroy(new Error('aborted')), { once: true });
}

async function readCsv(path: string, gzip: boolean, options: SpreadsheetReadOptions): Promise<void> {
  const raw = createReadStream(path, { highWaterMark: READ_CHUNK });
  let totalBytes = 0;
  const file = await open(path, 'r');
  try {
    totalBytes = (await file.stat()).size;
  } finally {
    await file.close();
  }
  let bytesRead = 0;
  raw.on('data', (chunk: string | Buffer) => {
    bytesRead += chunk.length;
    options.onBytes?.(bytesRead, totalBytes);
  });
  let source: Readable = raw;
  if (gzip) {
    const gunzip = createGunzip({ chunkSize: 256 * 1024 });
    raw.once('error', (error) => gunzip.destroy(error));
    source = raw.pipe(gunzip);
  }
  abortable(source, options.signal);
  const parser = createCsvParser(options.onRow);
  type Decode = (bytes: Uint8Array, final?: boolean) => string;
  let decode: Decode | null = null;
  let head: Buffer[] = [];
  let headBytes = 0;
  /** Decides the encoding from the head, parses it, and answers the decoder for the rest. */
  const start = (): Decode => {
    const first = Buffer.concat(head, headBytes);
    head = [];
    if (gzip && !isCsvText(first.subarray(0, SNIFF_BYTES))) throw fail(messages.spreadsheets.unknownFileType);
    const chosen = createTextDecoder(csvEncoding(first));
    parser.push(chosen(first));
    return chosen;
  };
  try {
    for await (const chunk of source) {
      const bytes = chunk as Buffer;
      if (decode) {
        parser.push(decode(bytes));
        await options.afterChunk?.();
        continue;
      }
      head.push(bytes);
      headBytes += bytes.length;
      if (headBytes >= ENCODING_HEAD) decode = start();
    }
    decode ??= start();
    parser.push(decode(new Uint8Array(0), true));
    parser.end();
  } finally {
    raw.destroy();
    source.destroy();
  }
}

// ---------------------------------------------------------------------------------------------
// .xlsx

interface OpenZip {
  file: FileHandle;
  size: number;
  entries: Map<string, ZipEntry>;
}

async function openZip(path: string, limits: LocalZipLimits): Promise<OpenZip> {
  const file = await open(path, 'r');
  try {
    const size = (await file.stat()).size;
    const tailLength = Math.min(size, ZIP_TAIL_BYTES);
    const location = zipDirectoryLocation(await readAt(file, size - tailLength, tailLength), size);
    const directory = await readAt(file, location.offset, location.size);
    const entries = parseZipDirectory(directory, location.entries, location.offset, limits);
    return { file, size, entries: new Map(entries.map((entry) => [entry.name, entry])) };
  } catch (error) {
    await file.close();
    throw error;
  }
}

/** An entry's inflated bytes as a stream, stopped with 'too_large' past its declared size. */
async function entryStream(path: string, zip: OpenZip, entry: ZipEntry, onCompressed?: (bytes: number) => void): Promise<Readable> {
  const start = zipEntryDataOffset(await readAt(zip.file, entry.localHeaderOffset, LOCAL_HEADER_SIZE), entry);
  if (start + entry.compressedSize > zip.size) throw new ZipProblem('unreadable', `${entry.name} runs past the end of the file`);
  const raw = createReadStream(path, { start, end: start + entry.compressedSize - 1, highWaterMark: READ_CHUNK });
  if (entry.compressedSize === 0) raw.destroy();
  let compressed = 0;
  raw.on('data', (chunk: string | Buffer) => {
    compressed += chunk.length;
    onCompressed?.(compressed);
  });
  if (entry.method === 0) return raw;
  const inflate = createInflateRaw({ chunkSize: 512 * 1024 });
  raw.once('error', (error) => inflate.destroy(error));
  let inflated = 0;
  inflate.on('data', (chunk: Buffer) => {
    inflated += chunk.length;
    if (inflated > entry.uncompressedSize) inflate.destroy(new ZipProblem('too_large', `${entry.name} inflates past its declared size`));
  });
  return raw.pipe(inflate);
}

/** Streams an entry's text into a parser (UTF-8, as SpreadsheetML is written). */
async function feedEntry(
  path: string,
  zip: OpenZip,
  entry: ZipEntry,
  parser: ChunkParser,
  signal?: AbortSignal,
  onCompressed?: (bytes: number) => void,
  afterChunk?: () => Promise<void> | void,
): Promise<void> {
  const stream = await entryStream(path, zip, entry, onCompressed);
  abortable(stream, signal);
  const decoder = new TextDecoder('utf-8');
  let total = 0;
  try {
    for await (const chunk of stream) {
      const bytes = chunk as Buffer;
      total += bytes.length;
      parser.push(decoder.decode(bytes, { stream: true }));
      await afterChunk?.();
    }
  } finally {
    stream.destroy();
  }
  // A stream that ended short of its declared size was cut (or lied the other way).
  if (total !== entry.uncompressedSize) throw new ZipProblem('unreadable', `${entry.name} size differs from its header`);
  parser.push(decoder.decode());
  parser.end();
}

/** A small part held whole (workbook, relations, styles), within the held-part limit. */
async function entryText(path: string, zip: OpenZip, name: string, limits: LocalZipLimits, signal?: AbortSignal): Promise<string | null> {
  const entry = zip.entries.get(name);
  if (!entry) return null;
  if (entry.uncompressedSize > limits.maxHeldPartBytes) throw new ZipProblem('too_large', name);
  let text = '';
  await feedEntry(path, zip, entry, { push: (chunk) => (text += chunk), end: () => undefined }, signal);
  return text;
}

async function readXlsx(path: string, options: SpreadsheetReadOptions): Promise<void> {
  const limits = options.zipLimits ?? LOCAL_ZIP_LIMITS;
  const zip = await openZip(path, limits);
  try {
    const workbookXml = await entryText(path, zip, 'xl/workbook.xml', limits, options.signal);
    if (workbookXml === null) throw fail(messages.spreadsheets.unreadable);
    const workbook = parseWorkbook(workbookXml);
    const relsXml = (await entryText(path, zip, 'xl/_rels/workbook.xml.rels', limits, options.signal)) ?? '';
    const target = workbook.firstSheetRelationship === null ? null : relationshipTarget(relsXml, workbook.firstSheetRelationship);
    const sheet = (target !== null ? zip.entries.get(target) : undefined) ?? zip.entries.get('xl/worksheets/sheet1.xml');
    if (!sheet) throw fail(messages.spreadsheets.noSheet);
    const stylesXml = await entryText(path, zip, 'xl/styles.xml', limits, options.signal);
    const dateStyles = stylesXml === null ? [] : parseDateStyles(stylesXml);
    const sharedStrings = createSharedStringsParser();
    const stringsEntry = zip.entries.get('xl/sharedStrings.xml');
    if (stringsEntry) {
      if (stringsEntry.uncompressedSize > limits.maxHeldPartBytes) throw new ZipProblem('too_large', stringsEntry.name);
      await feedEntry(path, zip, stringsEntry, sharedStrings, options.signal);
    }
    const maxColumns = options.maxColumns ?? DEFAULT_MAX_COLUMNS;
    const parser = createSheetParser(
      {
        sharedStrings: sharedStrings.strings,
        dateStyles,
        date1904: workbook.date1904,
        maxColumns,
        onTooWide: () => {
          throw fail(fillMessage(messages.sending.tooManyColumns, { max: maxColumns }));
        },
      },
      options.onRow,
    );
    await feedEntry(path, zip, sheet, parser, options.signal, (bytes) => options.onBytes?.(bytes, sheet.compressedSize), options.afterChunk);
  } finally {
    await zip.file.close();
  }
}

// ---------------------------------------------------------------------------------------------
// .xls

/** Rows handed on between awaits of `afterChunk`, as a chunk of a streamed file would give them. */
const XLS_ROWS_PER_CHUNK = 5_000;

async function readXls(path: string, options: SpreadsheetReadOptions): Promise<void> {
  const size = (await stat(path)).size;
  if (size > LEGACY_XLS_MAX_BYTES) throw fail(messages.sending.fileTooHeavy);
  const { legacyRowsOrRefusal } = await import('@shared/spreadsheetReaders/legacyXls');
  const content = await readFile(path, { signal: options.signal });
  const maxColumns = options.maxColumns ?? DEFAULT_MAX_COLUMNS;
  let line = 0;
  // SheetJS reads the whole workbook on the first step; the rest only walks its first sheet.
  for (const cells of legacyRowsOrRefusal(content, fail)) {
    // The file is all read once the first row comes out.
    if (line === 0) options.onBytes?.(size, size);
    line += 1;
    // Trailing empty cells do not make a row wide (the .xlsx reader only counts written cells).
    let width = cells.length;
    while (width > 0 && cells[width - 1] === '') width -= 1;
    if (width > maxColumns) throw fail(fillMessage(messages.sending.tooManyColumns, { max: maxColumns }));
    options.onRow(width === cells.length ? cells : cells.slice(0, width), line);
    if (line % XLS_ROWS_PER_CHUNK === 0) {
      if (options.signal?.aborted) throw fail(messages.sending.parseCancelled);
      await options.afterChunk?.();
    }
  }
}
