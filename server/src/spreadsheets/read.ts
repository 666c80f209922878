/**
 * Reading uploaded recipient spreadsheets (.xlsx, .xls, .csv) with hard limits, through the one
 * shared reader (shared/spreadsheetReaders/reader.ts) that the desktop and web apps read files
 * with, so a cell is the same text on every face. Rows are produced one at a time so that callers
 * that only need one column (the recipient import) never hold the sheet.
 *
 * A small upload is held in memory (at most `maxBytes`, 10 MB by default): content sniffing needs
 * its start, and the zip-bomb guard (zipGuard.ts) checks the whole of an .xlsx before it is read.
 * A resumable upload's file is read from disk by the worker instead: `fileSheetRows` streams CSV
 * (gzip-compressed or not) and an .xlsx's worksheet, and `summariseSpreadsheetFile` counts rows and
 * keeps a sample. The type is checked here; the parse itself runs in a worker thread with a capped
 * heap (parseWorkerPool.ts), which sends the rows back in batches. A legacy .xls is read whole by
 * SheetJS (shared/spreadsheetReaders/legacyXls.ts), loaded only in the worker.
 */
import { stat } from 'node:fs/promises';
import { extname } from 'node:path';
import type { Readable } from 'node:stream';
import { fillMessage, messages } from '@shared/messages';
import { spreadsheetColumnNames } from '@shared/spreadsheetCheck';
import { LOCAL_ZIP_LIMITS, type LocalZipLimits } from '@shared/spreadsheetReaders/files';
import { memorySource, readSpreadsheetBatches, SpreadsheetRefusal, type ReadableSpreadsheetKind, type SpreadsheetSource } from '@shared/spreadsheetReaders/reader';
import { AppError, ValidationError } from '../errors';
import { DEFAULT_SPREADSHEET_LIMITS, DEFAULT_WORKER_MEMORY_MB, type SpreadsheetKind, type SpreadsheetLimits } from './limits';
import { fileSource, nodeInflaters } from './nodeSource';
import { heavyFileError, parseCancelledError, ParseWorkerPool, type SpreadsheetFile } from './parseWorkerPool';
import { assertSafeZip, declaredUncompressedBytes, ZIP_TAIL_BYTES, ZipRefusedError } from './zipGuard';

export { DEFAULT_SPREADSHEET_LIMITS, DEFAULT_WORKER_MEMORY_MB, type SpreadsheetKind, type SpreadsheetLimits } from './limits';

export interface SpreadsheetInput {
  /** The name the user gave the file; only its extension is used. */
  filename: string;
  /** The upload, either in memory (multer memory storage) or as a stream. */
  buffer?: Buffer;
  stream?: Readable;
}

export interface SpreadsheetData {
  columns: string[];
  /** Each row keyed by column name; every column is present ('' when the cell is empty). */
  rows: Record<string, string>[];
  truncated: boolean;
}

const FIELD = 'file';
const fail = (message: string) => ValidationError(FIELD, message);

// ---------------------------------------------------------------------------------------------
// Input and type detection

/** Reads the upload into memory, refusing it as soon as it passes `maxBytes`. */
export async function readUpload(input: SpreadsheetInput, maxBytes: number): Promise<Buffer> {
  if (input.buffer) {
    if (input.buffer.length > maxBytes) throw fail(messages.sending.recipientFileTooLarge);
    return input.buffer;
  }
  if (!input.stream) throw fail(messages.sending.fileUnreadable);
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of input.stream) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    total += buffer.length;
    if (total > maxBytes) {
      input.stream.destroy();
      throw fail(messages.sending.recipientFileTooLarge);
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks, total);
}

const ZIP_SIGNATURE = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const OLE_SIGNATURE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be';

function bomEncoding(content: Buffer): TextEncoding | null {
  if (content[0] === 0xff && content[1] === 0xfe) return 'utf-16le';
  if (content[0] === 0xfe && content[1] === 0xff) return 'utf-16be';
  return null;
}

/** Text is anything without NUL bytes, or UTF-16 announced by its byte-order mark (Excel's "Unicode Text"). */
function looksLikeText(content: Buffer): boolean {
  return bomEncoding(content) !== null || content.indexOf(0) === -1;
}

/** An HTML table saved with an .xls name (a common "export to Excel" from web apps). */
function looksLikeHtml(content: Buffer): boolean {
  const head = content.subarray(0, 1024).toString('latin1').trimStart().toLowerCase();
  return head.startsWith('<') && /<(html|table|!doctype|\?xml)/.test(head);
}

/**
 * The parser for this file, from its extension and its content together: the extension must be
 * one the spec allows, and the content must really be that kind of file.
 */
export function detectKind(filename: string, content: Buffer): SpreadsheetKind {
  const extension = extname(filename).toLowerCase();
  const isZip = content.subarray(0, 4).equals(ZIP_SIGNATURE);
  const isOle = content.subarray(0, 8).equals(OLE_SIGNATURE);
  switch (extension) {
    case '.xlsx':
      if (isZip) return 'xlsx';
      // Excel writes a password-protected .xlsx inside an OLE container; a renamed .xls looks the same.
      if (isOle) throw fail(messages.sending.encryptedWorkbook);
      throw fail(messages.sending.fileContentMismatch);
    case '.csv':
      if (isZip || isOle || !looksLikeText(content)) throw fail(messages.sending.fileContentMismatch);
      return 'csv';
    case '.xls':
      if (isOle) return 'xls';
      if (isZip) return 'xlsx';
      if (!looksLikeText(content) || looksLikeHtml(content)) throw fail(messages.sending.legacyXls);
      return 'csv';
    default:
      throw fail(messages.sending.invalidFileTypeSpreadsheet);
  }
}

// ---------------------------------------------------------------------------------------------
// Raw rows

/**
 * The shared reader's zip limits under this parse's own: each entry within the whole archive's
 * cap and its own ratio (the reader's, since a large sheet of short cells compresses far), the
 * whole-archive checks being zipGuard's.
 */
function readerZipLimits(limits: SpreadsheetLimits): LocalZipLimits {
  return {
    ...LOCAL_ZIP_LIMITS,
    maxEntryBytes: limits.maxUncompressedBytes,
    maxHeldPartBytes: Math.min(LOCAL_ZIP_LIMITS.maxHeldPartBytes, limits.maxUncompressedBytes),
    ratioFloorBytes: limits.ratioFloorBytes,
    maxEntries: limits.maxEntries,
  };
}

/** A refusal of the shared reader as the server answers it. */
function refusalError(refusal: SpreadsheetRefusal): AppError {
  if (refusal.reason === 'too_heavy') return heavyFileError();
  if (refusal.reason === 'cancelled') return parseCancelledError();
  if (refusal.reason === 'unknown_type') return fail(messages.sending.fileContentMismatch);
  const error = fail(refusal.message);
  // A parser's own failure: a stream that failed may still fire later, so its worker is retired.
  if (refusal.reason === 'unreadable') libraryFailures.add(error);
  return error;
}

/** The rows of a source by the shared reader, each row held to the cell length limit. */
async function* readerRows(source: SpreadsheetSource, kind: ReadableSpreadsheetKind, limits: SpreadsheetLimits): AsyncGenerator<string[]> {
  try {
    for await (const batch of readSpreadsheetBatches(source, nodeInflaters, { kind, maxColumns: limits.maxColumns, zipLimits: readerZipLimits(limits) })) {
      for (let i = 0; i < batch.rows.length; i += 1) {
        const cells = batch.rows[i] ?? [];
        for (const cell of cells) {
          if (cell.length > limits.maxCellChars) throw fail(fillMessage(messages.sending.cellTooLong, { row: batch.lines[i] ?? 0, max: limits.maxCellChars }));
        }
        yield cells;
      }
    }
  } catch (error) {
    if (error instanceof SpreadsheetRefusal) throw refusalError(error);
    throw error;
  }
}

/** Runs the whole-archive guard over an .xlsx in memory, answering its refusal in the catalogue's words. */
async function guardZip(content: Buffer, limits: SpreadsheetLimits): Promise<void> {
  try {
    await assertSafeZip(content, limits);
  } catch (error) {
    if (!(error instanceof ZipRefusedError)) throw error;
    if (error.reason === 'too_large') throw fail(messages.sending.fileTooLargeUnpacked);
    if (error.reason === 'encrypted') throw fail(messages.sending.encryptedWorkbook);
    // The guard inflated a corrupt stream: retire the worker as after any inflater's failure.
    const unreadable = fail(messages.sending.fileUnreadable);
    libraryFailures.add(unreadable);
    throw unreadable;
  }
}

/** The rows of a file in memory by its kind (before the row limit). */
async function* rowsOf(content: Buffer, kind: SpreadsheetKind, limits: SpreadsheetLimits): AsyncGenerator<string[]> {
  if (kind === 'xlsx') await guardZip(content, limits);
  yield* readerRows(memorySource(content), kind, limits);
}

/** The rows of a file on disk by its kind (before the row limit). */
async function* fileRows(file: SpreadsheetFile, kind: SpreadsheetKind, limits: SpreadsheetLimits, maxWholeFileBytes: number): AsyncGenerator<string[]> {
  const source = await fileSource(file.path);
  if (kind !== 'csv') {
    if (file.gzip) throw fail(messages.sending.fileContentMismatch);
    // Refused before it is read: the worker may hold no more than this outside its heap.
    if ((await stat(file.path)).size > maxWholeFileBytes) throw heavyFileError();
  }
  if (kind === 'xlsx') {
    // A workbook that declares more than the guard allows once unpacked is refused from its
    // central directory alone; the reader then stops each entry at the size it declared.
    const declared = declaredUncompressedBytes(Buffer.from(await source.read(Math.max(0, source.size - ZIP_TAIL_BYTES), ZIP_TAIL_BYTES)), source.size);
    if (declared !== null && declared > limits.maxUncompressedBytes) throw fail(messages.sending.fileTooLargeUnpacked);
  }
  yield* readerRows(source, kind === 'csv' && file.gzip ? 'csv-gzip' : kind, limits);
}

/**
 * `sheetRows` for a file on disk, in the parse worker: a CSV (gzip-compressed or not) streams
 * from disk, so a file of a million rows never sits in memory; a workbook is read whole.
 */
export function fileSheetRows(
  file: SpreadsheetFile,
  kind: SpreadsheetKind,
  limits: SpreadsheetLimits,
  maxWholeFileBytes: number = Number.POSITIVE_INFINITY,
): AsyncGenerator<string[], { truncated: boolean }> {
  const rows = fileRows(file, kind, limits, maxWholeFileBytes);
  return limitedRows(rows, limits);
}

/**
 * The rows of the first sheet in this thread: trimmed, empty rows skipped, the header row plus at
 * most `maxRows` data rows; the result says whether more were dropped. The parse worker runs this.
 */
export function sheetRows(content: Buffer, kind: SpreadsheetKind, limits: SpreadsheetLimits): AsyncGenerator<string[], { truncated: boolean }> {
  return limitedRows(rowsOf(content, kind, limits), limits);
}

async function* limitedRows(rows: AsyncGenerator<string[]>, limits: SpreadsheetLimits): AsyncGenerator<string[], { truncated: boolean }> {
  let yielded = 0;
  try {
    for await (const row of rows) {
      if (row.length === 0) continue;
      // One header row plus maxRows data rows; seeing one more proves the file was cut.
      if (yielded > limits.maxRows) return { truncated: true };
      yielded += 1;
      yield row;
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    // A failure that is no check of ours (a stream error) reads as an unreadable file.
    const unreadable = fail(messages.sending.fileUnreadable);
    libraryFailures.add(unreadable);
    throw unreadable;
  }
  return { truncated: false };
}

const libraryFailures = new WeakSet<AppError>();

/** Whether sheetRows raised this error for a parser library's failure (rather than a check of ours). */
export function isLibraryFailure(error: AppError): boolean {
  return libraryFailures.has(error);
}

export interface ParseOptions {
  /** Ends the parse (and its worker) when it fires: the request went away. */
  signal?: AbortSignal;
  /** The workers to parse in; a shared default pool with the default memory cap otherwise. */
  pool?: ParseWorkerPool;
  /** Each row is just its first cell (rows with no cell at all are still skipped). */
  firstColumnOnly?: boolean;
  /** Batches the worker may parse ahead of the caller (two unless given). */
  readAhead?: number;
  /** Names the parse for the pool's `status()` (an upload's id) while it waits or runs. */
  tag?: string;
}

let defaultPool: ParseWorkerPool | null = null;

/** The pool of callers that bring none (the unit tests); the server passes its configured one. */
export function defaultParseWorkerPool(): ParseWorkerPool {
  defaultPool ??= new ParseWorkerPool({ memoryMb: DEFAULT_WORKER_MEMORY_MB });
  return defaultPool;
}

/**
 * The rows of the first sheet as trimmed strings, the header row first, empty rows skipped.
 * Iterate once. After iteration `truncated` says whether data rows past `maxRows` were dropped.
 * Stopping early (break, return, an error in the loop) ends the parse and its worker.
 */
export class SpreadsheetRows implements AsyncIterable<string[]> {
  truncated = false;
  kind: SpreadsheetKind | null = null;

  constructor(
    private readonly input: SpreadsheetInput,
    private readonly limits: SpreadsheetLimits,
    private readonly options: ParseOptions = {},
  ) {}

  async *[Symbol.asyncIterator](): AsyncGenerator<string[]> {
    const { signal } = this.options;
    const content = await readUpload(this.input, this.limits.maxBytes);
    if (signal?.aborted) throw parseCancelledError();
    const kind = detectKind(this.input.filename, content);
    this.kind = kind;
    // A copy the worker can own: the caller's buffer may be a slice of Node's shared pool.
    const owned = new Uint8Array(content.length);
    owned.set(content);
    const pool = this.options.pool ?? defaultParseWorkerPool();
    const run = pool.run({ content: owned, kind, limits: this.limits, firstColumnOnly: this.options.firstColumnOnly ?? false }, signal);
    try {
      for await (const batch of run.batches()) yield* batch;
      this.truncated = run.truncated;
    } finally {
      run.stop();
    }
  }
}

export function parseSpreadsheet(input: SpreadsheetInput, limits: Partial<SpreadsheetLimits> = {}, options: ParseOptions = {}): SpreadsheetRows {
  return new SpreadsheetRows(input, { ...DEFAULT_SPREADSHEET_LIMITS, ...limits }, options);
}

// ---------------------------------------------------------------------------------------------
// Keyed rows

/**
 * Column names from the header row: trimmed; empty ones become `Column N` (N counted from 1);
 * repeats get ` (2)`, ` (3)`... so that every key of a keyed row is distinct. The one rule lives in
 * shared/spreadsheetCheck.ts, so columns named by a local parse are the server's names.
 */
export const headerNames: (header: string[], width?: number) => string[] = spreadsheetColumnNames;

/**
 * The first sheet keyed by its header row (the spec's parsed-spreadsheet shape). Columns cover the
 * widest row, so data under an empty header cell is kept as `Column N`. A file with a header but
 * no data rows gives the spec's 'No recipients found in Excel file'.
 */
export async function readSpreadsheet(
  input: SpreadsheetInput,
  limits: Partial<SpreadsheetLimits> = {},
  options: ParseOptions = {},
): Promise<SpreadsheetData> {
  const source = parseSpreadsheet(input, limits, options);
  let header: string[] | null = null;
  const data: string[][] = [];
  let width = 0;
  for await (const row of source) {
    if (header === null) header = row;
    else data.push(row);
    width = Math.max(width, row.length);
  }
  if (header === null || data.length === 0) throw fail(messages.sending.noRecipientsInFile);
  const columns = headerNames(header, width);
  // fromEntries defines own properties, so a column named "__proto__" is data, not a prototype.
  const rows = data.map((cells) => Object.fromEntries(columns.map((name, i) => [name, cells[i] ?? ''])));
  return { columns, rows, truncated: source.truncated };
}

// ---------------------------------------------------------------------------------------------
// A file's summary (resumable uploads)

export interface SpreadsheetSummary {
  columns: string[];
  /** Data rows (the header row is not counted). */
  rows: number;
  /** The first data rows keyed by column, as `readSpreadsheet` keys them. */
  sample: Record<string, string>[];
  truncated: boolean;
}

/**
 * Reads a whole spreadsheet file in a parse worker and answers its columns, its data row count and
 * its first `sampleRows` data rows; only the sample crosses to this thread. Columns cover the
 * widest row of the whole file, as `readSpreadsheet`'s do.
 */
export async function summariseSpreadsheetFile(
  file: SpreadsheetFile & { kind: SpreadsheetKind },
  sampleRows: number,
  limits: Partial<SpreadsheetLimits> = {},
  options: Omit<ParseOptions, 'firstColumnOnly'> = {},
): Promise<SpreadsheetSummary> {
  const pool = options.pool ?? defaultParseWorkerPool();
  const run = pool.run(
    { file: { path: file.path, gzip: file.gzip }, kind: file.kind, limits: { ...DEFAULT_SPREADSHEET_LIMITS, ...limits }, firstColumnOnly: false, sampleRows: sampleRows + 1 },
    options.signal,
    undefined,
    options.tag,
  );
  const received: string[][] = [];
  try {
    for await (const batch of run.batches()) received.push(...batch);
  } finally {
    run.stop();
  }
  const [header, ...data] = received;
  if (!header || run.rowCount < 2) throw fail(messages.sending.noRecipientsInFile);
  const columns = headerNames(header, run.width);
  return {
    columns,
    rows: run.rowCount - 1,
    sample: data.map((cells) => Object.fromEntries(columns.map((name, i) => [name, cells[i] ?? '']))),
    truncated: run.truncated,
  };
}

// ---------------------------------------------------------------------------------------------
// A file's rows, streamed (a resumable upload sent as a campaign)

/**
 * The rows of a spreadsheet file on disk, the header row first, in the parse worker's batches.
 * Nothing accumulates here: the worker is at most its credits (`readAhead`, two unless given,
 * batches of 1,000 rows or 512 K characters) ahead of the caller, and each batch is dropped once
 * the caller moves on, so `maxTotalChars` (a bound on what a parse hands back in all) is lifted
 * for this read; what the caller keeps is the caller's to bound. Answers whether data rows past
 * `maxRows` were dropped. Stopping early ends the parse and its worker.
 */
export async function* spreadsheetFileBatches(
  file: SpreadsheetFile & { kind: SpreadsheetKind },
  limits: Partial<SpreadsheetLimits> = {},
  options: ParseOptions = {},
): AsyncGenerator<string[][], { truncated: boolean }> {
  const pool = options.pool ?? defaultParseWorkerPool();
  const run = pool.run(
    {
      file: { path: file.path, gzip: file.gzip },
      kind: file.kind,
      limits: { ...DEFAULT_SPREADSHEET_LIMITS, maxTotalChars: Number.MAX_SAFE_INTEGER, ...limits },
      firstColumnOnly: options.firstColumnOnly ?? false,
    },
    options.signal,
    options.readAhead,
    options.tag,
  );
  try {
    yield* run.batches();
  } finally {
    run.stop();
  }
  return { truncated: run.truncated };
}
