/**
 * Reading uploaded recipient spreadsheets (.xlsx, .xls, .csv) with hard limits. Rows are produced one at a time so that callers that only need one column (the
 * recipient import) never hold the sheet.
 *
 * The whole upload is held in memory (at most `maxBytes`, 10 MB by default): the zip-bomb guard
 * needs the zip's central directory, which sits at the end of the file, and content sniffing needs
 * the start. (A resumable upload's file is read from disk by the worker instead: `fileSheetRows`
 * streams CSV, gzip-compressed or not, and `summariseSpreadsheetFile` counts rows and keeps a
 * sample.) The type is checked here; the parse itself runs in a worker thread with a capped heap
 * (parseWorkerPool.ts), which sends the rows back in batches:
 *  - XLSX: exceljs's streaming WorkbookReader (STACK.md: 2.4 s / 160 MB for 100k x 8; the
 *    full-load reader takes 540 MB and is not used), after `assertSafeZip`.
 *  - CSV: papaparse's Node stream (0.22 s / 57 MB for 100k x 8); exceljs's CSV reader is slow.
 *  - Legacy .xls (BIFF in an OLE container, D0 CF 11 E0): SheetJS 0.20.3 (`@e965/xlsx`, see
 *    legacyXls.ts), loaded only in the worker, the file read whole under the same caps. Many
 *    ".xls" files are really CSV/TSV text or renamed .xlsx; those are read by content.
 */
import { createReadStream } from 'node:fs';
import { open, readFile, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { Readable } from 'node:stream';
import { crc32, createGunzip } from 'node:zlib';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import { SENDING } from '@shared/constants';
import { fillMessage, messages } from '@shared/messages';
import { dateText, numberText } from '@shared/sheetRows';
import { spreadsheetColumnNames } from '@shared/spreadsheetCheck';
import { AppError, ValidationError } from '../errors';
import { heavyFileError, parseCancelledError, ParseWorkerPool, type SpreadsheetFile } from './parseWorkerPool';
import type { SpreadsheetKind, SpreadsheetLimits } from './spreadsheetKinds';
import { assertSafeZip, declaredUncompressedBytes, DEFAULT_ZIP_LIMITS, ZIP_TAIL_BYTES, ZipRefusedError, type ZipEntryInfo } from './zipGuard';

export type { SpreadsheetKind, SpreadsheetLimits } from './spreadsheetKinds';

export interface SpreadsheetInput {
  /** The name the user gave the file; only its extension is used. */
  filename: string;
  /** The upload, either in memory (multer memory storage) or as a stream. */
  buffer?: Buffer;
  stream?: Readable;
}

export const DEFAULT_SPREADSHEET_LIMITS: SpreadsheetLimits = {
  ...DEFAULT_ZIP_LIMITS,
  maxBytes: SENDING.recipientFileMaxMb * 1024 * 1024,
  maxRows: 100_000,
  maxColumns: 200,
  // Excel's own limit for one cell: anything longer cannot have come from a spreadsheet.
  maxCellChars: 32_767,
  // Far above any real recipient file (100k rows x 8 columns of 20 characters is 16 M).
  maxTotalChars: 64 * 1024 * 1024,
};

/** The parse's V8 heap cap when the caller gives none (SPREADSHEET_WORKER_MEMORY_MB's default). */
export const DEFAULT_WORKER_MEMORY_MB = 256;


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
// Cell values

/** An exceljs cell as text; numbers and dates follow the one rule of `@shared/sheetRows`. */
export function cellToString(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return numberText(value);
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return dateText(value);
  if ('richText' in value) return value.richText.map((part) => part.text).join('');
  if ('error' in value) return value.error;
  if ('hyperlink' in value) return typeof value.text === 'string' ? value.text : cellToString(value.text as ExcelJS.CellValue);
  if ('result' in value) return cellToString(value.result);
  // A formula without a cached result (written by a program that did not calculate it).
  return '';
}

// ---------------------------------------------------------------------------------------------
// Raw rows

/** Checks one row's cells and returns them trimmed, without trailing empty cells. */
function cleanRow(cells: string[], rowNumber: number, limits: SpreadsheetLimits): string[] {
  let width = 0;
  const out: string[] = new Array<string>(cells.length);
  for (let i = 0; i < cells.length; i += 1) {
    const cell = (cells[i] ?? '').trim();
    if (cell.length > limits.maxCellChars) {
      throw fail(fillMessage(messages.sending.cellTooLong, { row: rowNumber, max: limits.maxCellChars }));
    }
    out[i] = cell;
    if (cell !== '') {
      if (i >= limits.maxColumns) throw fail(fillMessage(messages.sending.tooManyColumns, { max: limits.maxColumns }));
      width = i + 1;
    }
  }
  out.length = width;
  return out;
}

/** A stored (uncompressed) local zip record, for the stand-in shared-strings part. */
function storedRecord(name: string, data: Buffer): Buffer {
  const nameBytes = Buffer.from(name, 'latin1');
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(20, 4);
  header.writeUInt32LE(crc32(data), 14);
  header.writeUInt32LE(data.length, 18);
  header.writeUInt32LE(data.length, 22);
  header.writeUInt16LE(nameBytes.length, 26);
  return Buffer.concat([header, nameBytes, data]);
}

const SHARED_STRINGS = 'xl/sharedStrings.xml';
const EMPTY_SHARED_STRINGS = storedRecord(
  SHARED_STRINGS,
  Buffer.from('<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"/>'),
);
/** What exceljs must have read before a worksheet to stream it directly: relations, workbook, styles, strings. */
const WORKBOOK_PARTS = ['xl/_rels/workbook.xml.rels', 'xl/workbook.xml', 'xl/styles.xml', SHARED_STRINGS];
const WORKSHEET = /^xl\/worksheets\/sheet(\d+)\.xml$/;

/**
 * The zip records exceljs needs, in the order it needs them. Excel (and exceljs) write worksheets
 * before sharedStrings.xml and styles.xml; exceljs's streaming reader then copies each worksheet
 * to a temporary file and only deletes it after the whole workbook has been read, so stopping early
 * (first sheet, row limit, error) would leave files behind on every upload, and dates would need
 * styles that arrive too late. Feeding it the workbook parts first, then the first worksheet only
 * (Excel numbers worksheet files in tab order), keeps everything in memory and in one pass.
 * `assertSafeZip` has already checked that the records tile the file, so slicing them is exact.
 */
function workbookForStreaming(content: Buffer, entries: ZipEntryInfo[]): Buffer[] {
  const byName = new Map(entries.map((entry) => [entry.name, entry]));
  const record = (entry: ZipEntryInfo) => content.subarray(entry.localHeaderOffset, entry.recordEnd);
  const parts: Buffer[] = [];
  for (const name of WORKBOOK_PARTS) {
    const entry = byName.get(name);
    if (entry) parts.push(record(entry));
    // A workbook without text cells has no shared strings; without the part exceljs takes the temporary-file path.
    else if (name === SHARED_STRINGS) parts.push(EMPTY_SHARED_STRINGS);
    // Without relations or the workbook part it is not a workbook exceljs can stream.
    else if (name !== 'xl/styles.xml') throw fail(messages.sending.fileUnreadable);
  }
  const sheets = entries
    .map((entry) => ({ entry, number: Number(WORKSHEET.exec(entry.name)?.[1] ?? Number.NaN) }))
    .filter((sheet) => Number.isFinite(sheet.number))
    .sort((a, b) => a.number - b.number);
  if (sheets[0]) parts.push(record(sheets[0].entry));
  return parts;
}

async function* xlsxRows(content: Buffer, limits: SpreadsheetLimits): AsyncGenerator<string[]> {
  let entries: ZipEntryInfo[];
  try {
    entries = await assertSafeZip(content, limits);
  } catch (error) {
    if (!(error instanceof ZipRefusedError)) throw error;
    if (error.reason === 'too_large') throw fail(messages.sending.fileTooLargeUnpacked);
    if (error.reason === 'encrypted') throw fail(messages.sending.encryptedWorkbook);
    throw fail(messages.sending.fileUnreadable);
  }
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from(workbookForStreaming(content, entries)), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    // Styles are needed to tell a date cell from a number cell; hyperlinks only replace values.
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'ignore',
  });
  // Only the first worksheet is in the stream (see workbookForStreaming).
  for await (const worksheet of reader) {
    for await (const row of worksheet) {
      const cells: string[] = [];
      let tooWide = false;
      row.eachCell({ includeEmpty: false }, (cell, column) => {
        const text = cellToString(cell.value);
        if (column > limits.maxColumns) {
          if (text.trim() !== '') tooWide = true;
          return;
        }
        cells[column - 1] = text;
      });
      if (tooWide) throw fail(fillMessage(messages.sending.tooManyColumns, { max: limits.maxColumns }));
      yield cleanRow(Array.from(cells, (cell) => cell ?? ''), row.number, limits);
    }
    return;
  }
}

/**
 * A legacy workbook's first sheet (legacyXls.ts). Imported here, lazily, so that SheetJS is only
 * ever loaded by the parse worker that runs this reader.
 */
async function* xlsRows(content: Buffer, limits: SpreadsheetLimits): AsyncGenerator<string[]> {
  const { isPasswordError, legacyWorkbookRows } = await import('./legacyXls');
  // SheetJS reads the whole workbook on the first step; the rest only walks its first sheet.
  const rows = legacyWorkbookRows(content);
  let rowNumber = 0;
  for (;;) {
    let next: IteratorResult<string[]>;
    try {
      next = rows.next();
    } catch (error) {
      if (isPasswordError(error)) throw fail(messages.sending.encryptedWorkbook);
      throw error;
    }
    if (next.done) return;
    rowNumber += 1;
    yield cleanRow(next.value, rowNumber, limits);
  }
}

function decodeText(content: Buffer): string {
  const bom = bomEncoding(content);
  if (bom) return new TextDecoder(bom).decode(content);
  try {
    // Strips a UTF-8 byte-order mark; `fatal` tells a UTF-8 file from one in the Windows code page.
    return new TextDecoder('utf-8', { fatal: true }).decode(content);
  } catch {
    // Excel's plain "CSV (Comma delimited)" is saved in the ANSI code page, which is windows-1252 in
    // the markets this product serves; reading it as UTF-8 would turn every accented name into U+FFFD.
    return decodeWindows1252(content);
  }
}

/** windows-1252's 0x80-0x9F (Node 20's TextDecoder treats the label as ISO-8859-1 and leaves C1 controls). */
const CP1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

export function decodeWindows1252(content: Buffer): string {
  return content.toString('latin1').replace(/[\u0080-\u009f]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80] ?? c);
}

/**
 * Feeds the parser in slices so rows come out while the rest is still being parsed. Kept small on
 * purpose: papaparse copies the unparsed rest of the current slice every time the consumer's
 * buffer fills (every 16 rows), so large slices make parsing quadratic (100k rows: 64 KB 1.8 s, 2 KB 0.26 s).
 */
function* textSlices(text: string, size = 2 * 1024): Generator<string> {
  for (let at = 0; at < text.length; at += size) yield text.slice(at, at + size);
}

function csvRows(content: Buffer, limits: SpreadsheetLimits): AsyncGenerator<string[]> {
  return csvTextRows(textSlices(decodeText(content)), limits);
}

async function* csvTextRows(text: Iterable<string> | AsyncIterable<string>, limits: SpreadsheetLimits): AsyncGenerator<string[]> {
  const parser = Papa.parse(Papa.NODE_STREAM_INPUT, {
    header: false,
    skipEmptyLines: 'greedy',
    delimitersToGuess: [',', ';', '\t'],
  });
  const source = Readable.from(text);
  // pipe() does not pass errors on: a failing file read or gunzip must end the parse.
  source.once('error', (error) => parser.destroy(error));
  source.pipe(parser);
  let rowNumber = 0;
  try {
    for await (const row of parser as AsyncIterable<unknown>) {
      rowNumber += 1;
      const cells = Array.isArray(row) ? row.map((cell) => (typeof cell === 'string' ? cell : String(cell ?? ''))) : [];
      yield cleanRow(cells, rowNumber, limits);
    }
  } finally {
    source.destroy();
    parser.destroy();
  }
}

// ---------------------------------------------------------------------------------------------
// Files on disk (resumable uploads)

type StreamEncoding = TextEncoding | 'windows-1252';

/** Opens the file afresh, gunzipping it when asked; errors of either stage reach the reader. */
function openText(file: SpreadsheetFile): Readable {
  const raw = createReadStream(file.path);
  if (!file.gzip) return raw;
  const gunzip = createGunzip();
  raw.once('error', (error) => gunzip.destroy(error));
  return raw.pipe(gunzip);
}

/**
 * The encoding of a text file too large to hold, decided as `decodeText` decides it for one in
 * memory: a byte-order mark, else UTF-8 if the whole file is valid UTF-8, else windows-1252.
 * That needs one pass over the file before the parse (a stream cannot be read again).
 */
async function streamEncoding(file: SpreadsheetFile): Promise<StreamEncoding> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let first = true;
  for await (const chunk of openText(file)) {
    const bytes = chunk as Buffer;
    if (first) {
      first = false;
      const bom = bomEncoding(bytes);
      if (bom) return bom;
    }
    if (bytes.indexOf(0) !== -1) throw fail(messages.sending.fileContentMismatch);
    try {
      decoder.decode(bytes, { stream: true });
    } catch {
      return 'windows-1252';
    }
  }
  try {
    decoder.decode();
  } catch {
    return 'windows-1252';
  }
  return 'utf-8';
}

/** The file's text in small slices (see textSlices), decoded as it streams. */
async function* fileTextSlices(file: SpreadsheetFile, encoding: StreamEncoding): AsyncGenerator<string> {
  // TextDecoder drops a leading byte-order mark, as decodeText does.
  const decoder = encoding === 'windows-1252' ? null : new TextDecoder(encoding);
  for await (const chunk of openText(file)) {
    const bytes = chunk as Buffer;
    yield* textSlices(decoder ? decoder.decode(bytes, { stream: true }) : decodeWindows1252(bytes));
  }
  const rest = decoder?.decode() ?? '';
  if (rest) yield rest;
}

async function* csvFileRows(file: SpreadsheetFile, limits: SpreadsheetLimits): AsyncGenerator<string[]> {
  const encoding = await streamEncoding(file);
  yield* csvTextRows(fileTextSlices(file, encoding), limits);
}

/**
 * A workbook file read whole (the zip guard reads the central directory at the end of the file),
 * refused before it is read when it is larger than the worker may hold outside its heap.
 */
async function wholeWorkbook(file: SpreadsheetFile, maxBytes: number): Promise<Buffer> {
  if (file.gzip) throw fail(messages.sending.fileContentMismatch);
  if ((await stat(file.path)).size > maxBytes) throw heavyFileError();
  return readFile(file.path);
}

/** The last `bytes` of a file (all of it when shorter). */
async function fileTail(path: string, size: number, bytes: number): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const length = Math.min(size, bytes);
    const tail = Buffer.alloc(length);
    await handle.read(tail, 0, length, size - length);
    return tail;
  } finally {
    await handle.close();
  }
}

async function* xlsxFileRows(file: SpreadsheetFile, limits: SpreadsheetLimits, maxBytes: number): AsyncGenerator<string[]> {
  // A workbook that declares more than the guard allows once unpacked is refused from its central
  // directory alone: a file of a hundred megabytes is then never read into memory.
  const { size } = await stat(file.path);
  const declared = declaredUncompressedBytes(await fileTail(file.path, size, ZIP_TAIL_BYTES), size);
  if (declared !== null && declared > limits.maxUncompressedBytes) throw fail(messages.sending.fileTooLargeUnpacked);
  yield* xlsxRows(await wholeWorkbook(file, maxBytes), limits);
}

async function* xlsFileRows(file: SpreadsheetFile, limits: SpreadsheetLimits, maxBytes: number): AsyncGenerator<string[]> {
  yield* xlsRows(await wholeWorkbook(file, maxBytes), limits);
}

/** The rows of a file in memory by its kind (before the row limit). */
function rowsOf(content: Buffer, kind: SpreadsheetKind, limits: SpreadsheetLimits): AsyncGenerator<string[]> {
  if (kind === 'xlsx') return xlsxRows(content, limits);
  if (kind === 'xls') return xlsRows(content, limits);
  return csvRows(content, limits);
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
  const rows =
    kind === 'xlsx' ? xlsxFileRows(file, limits, maxWholeFileBytes) : kind === 'xls' ? xlsFileRows(file, limits, maxWholeFileBytes) : csvFileRows(file, limits);
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
    // exceljs and unzipper report corrupt files with assorted plain errors.
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
