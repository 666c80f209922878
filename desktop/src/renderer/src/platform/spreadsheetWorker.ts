/**
 * The web shell's spreadsheet worker: reads a CSV (papaparse, by chunks), a gzip CSV
 * (DecompressionStream), an XLSX (exceljs, loaded only here) or a legacy .xls (the shared SheetJS
 * reader, shared/spreadsheetReaders/legacyXls.ts, loaded only here and only for such a file, so
 * its chunk is not part of the app's first load) off the page's thread, with
 * progress; summarises it; and checks a mapping over every row with the shared spreadsheetCheck,
 * writing the normalised rows gzip-compressed (CompressionStream) and the invalid rows as CSV.
 */
import Papa from 'papaparse';
import { fillMessage, messages } from '@shared/messages';
import { cellText } from '@shared/sheetRows';
import {
  createColumnStats,
  createSpreadsheetCheck,
  INVALID_ROWS_CSV_HEADER,
  invalidRowCsvLine,
  SPREADSHEET_SAMPLE_ROWS,
  spreadsheetColumnNames,
} from '@shared/spreadsheetCheck';
import { LEGACY_XLS_MAX_BYTES } from '@shared/spreadsheetReaders/files';
import type { SpreadsheetPhase, SpreadsheetProgress, SpreadsheetSummary } from '@shared/spreadsheets';
import type { SpreadsheetWorkerAnswer, SpreadsheetWorkerRequest } from './spreadsheetWorkerProtocol';

const m = messages.sheetScreens;
/** Progress events at most this often, so that a million rows do not flood the page. */
const PROGRESS_EVERY_MS = 100;
const CSV_CHUNK_BYTES = 4 * 1024 * 1024;
/** Normalised lines joined per write to the gzip stream. */
const LINES_PER_WRITE = 2_000;

interface WorkerScope {
  postMessage(message: SpreadsheetWorkerAnswer): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<SpreadsheetWorkerRequest>) => void): void;
}
const scope = self as unknown as WorkerScope;

/** An error whose message is already a catalogue text; anything else a reader throws is wrapped in `readFailed`. */
class CatalogueError extends Error {}

type RowSink = (cells: string[], line: number) => void;
type ProgressSink = (rows: number, bytes: number, percent: number) => void;

/** An exceljs cell value as the one `cellText` rule reads it (rich text, formulas and links by their text). */
function excelValue(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  const object = value as { richText?: unknown; result?: unknown; text?: unknown; error?: unknown; formula?: unknown; sharedFormula?: unknown };
  if (Array.isArray(object.richText)) return object.richText.map((part: { text?: unknown }) => (typeof part.text === 'string' ? part.text : '')).join('');
  if ('result' in object) return excelValue(object.result);
  if ('text' in object) return excelValue(object.text);
  if ('error' in object || 'formula' in object || 'sharedFormula' in object) return '';
  return value;
}

async function startsWith(file: Blob, signature: readonly number[]): Promise<boolean> {
  const head = new Uint8Array(await file.slice(0, signature.length).arrayBuffer());
  return signature.every((byte, i) => head[i] === byte);
}

async function readCsv(blob: Blob, onRow: RowSink, onProgress: ProgressSink): Promise<void> {
  let line = 0;
  let rows = 0;
  await new Promise<void>((resolve, reject) => {
    Papa.parse<string[]>(blob as File, {
      chunkSize: CSV_CHUNK_BYTES,
      skipEmptyLines: false,
      chunk(results) {
        for (const cells of results.data) {
          line += 1;
          if (line === 1 && cells[0] !== undefined) cells[0] = cells[0].replace(/^\uFEFF/, '');
          rows += 1;
          // Cells as the check and the column statistics take them: trimmed (the XLSX path's cellText trims too).
          onRow(cells.map((cell) => cell.trim()), line);
        }
        const bytes = Math.min(blob.size, results.meta.cursor);
        onProgress(rows, bytes, blob.size === 0 ? 100 : (bytes / blob.size) * 100);
      },
      complete: () => resolve(),
      error: (error) => reject(error),
    });
  });
}

async function readXlsx(file: Blob, onRow: RowSink, onProgress: ProgressSink): Promise<void> {
  const { default: ExcelJS } = await import('exceljs');
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(await file.arrayBuffer());
  const sheet = book.worksheets[0];
  if (!sheet) throw new CatalogueError(m.emptyFile);
  const total = Math.max(1, sheet.rowCount);
  let rows = 0;
  sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    const values = row.values as unknown[];
    const cells: string[] = [];
    for (let column = 1; column < values.length; column += 1) cells.push(cellText(excelValue(values[column])));
    rows += 1;
    onRow(cells, rowNumber);
    onProgress(rows, Math.round((rowNumber / total) * file.size), (rowNumber / total) * 100);
  });
}

/** Rows between progress reports of an .xls (read whole first, then walked). */
const XLS_PROGRESS_ROWS = 1_000;

async function readXls(file: Blob, onRow: RowSink, onProgress: ProgressSink): Promise<void> {
  // BIFF cannot be streamed: the whole file is held, so it is capped as the desktop caps it.
  if (file.size > LEGACY_XLS_MAX_BYTES) throw new CatalogueError(messages.sending.fileTooHeavy);
  const { legacyRowsOrRefusal } = await import('@shared/spreadsheetReaders/legacyXls');
  let line = 0;
  for (const cells of legacyRowsOrRefusal(new Uint8Array(await file.arrayBuffer()), (text) => new CatalogueError(text))) {
    line += 1;
    // Cells trimmed, as the other readers hand them to the check.
    onRow(cells.map((cell) => cell.trim()), line);
    if (line % XLS_PROGRESS_ROWS === 0) onProgress(line, file.size, 100);
  }
}

/** Every row of the file with its line as the user sees it, whatever its format. */
async function readRows(file: File, onRow: RowSink, onProgress: ProgressSink): Promise<void> {
  if (await startsWith(file, [0x50, 0x4b, 0x03, 0x04])) return readXlsx(file, onRow, onProgress);
  // An OLE container: a legacy .xls (or an .xlsx with a password, which the reader refuses as such).
  if (await startsWith(file, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return readXls(file, onRow, onProgress);
  if (await startsWith(file, [0x1f, 0x8b])) {
    const csv = await new Response(file.stream().pipeThrough(new DecompressionStream('gzip'))).blob();
    return readCsv(csv, onRow, onProgress);
  }
  if (/\.(xlsx|xls|gz)$/i.test(file.name)) throw new CatalogueError(m.unsupportedType);
  return readCsv(file, onRow, onProgress);
}

function isEmpty(cells: readonly string[]): boolean {
  return cells.every((cell) => (cell ?? '').trim() === '');
}

function progressReporter(requestId: number, fileId: string, phase: SpreadsheetPhase, totalBytes: number): ProgressSink & { flush: ProgressSink } {
  let last = 0;
  const post = (rows: number, bytes: number, percent: number) => {
    const progress: SpreadsheetProgress = { fileId, phase, rows, bytes, totalBytes, percent: Math.max(0, Math.min(100, percent)) };
    scope.postMessage({ requestId, kind: 'progress', progress });
  };
  const report = (rows: number, bytes: number, percent: number) => {
    const now = performance.now();
    if (now - last < PROGRESS_EVERY_MS) return;
    last = now;
    post(rows, bytes, percent);
  };
  return Object.assign(report, { flush: post });
}

async function parse(request: Extract<SpreadsheetWorkerRequest, { kind: 'parse' }>): Promise<SpreadsheetSummary> {
  const progress = progressReporter(request.requestId, request.fileId, 'parsing', request.file.size);
  let rawHeader: string[] | null = null;
  let header: string[] = [];
  let stats: ReturnType<typeof createColumnStats> | null = null;
  const sample: Record<string, string>[] = [];
  let rows = 0;
  await readRows(
    request.file,
    (cells) => {
      if (isEmpty(cells)) return;
      if (rawHeader === null) {
        rawHeader = cells;
        header = spreadsheetColumnNames(cells);
        stats = createColumnStats(cells);
        return;
      }
      rows += 1;
      stats?.add(cells);
      if (sample.length < SPREADSHEET_SAMPLE_ROWS) {
        const row: Record<string, string> = {};
        header.forEach((name, i) => (row[name] = (cells[i] ?? '').trim()));
        sample.push(row);
      }
    },
    (_rows, bytes, percent) => progress(rows, bytes, percent),
  );
  progress.flush(rows, request.file.size, 100);
  if (rawHeader === null || rows === 0) throw new CatalogueError(m.emptyFile);
  const columns = (stats as ReturnType<typeof createColumnStats> | null)?.result() ?? [];
  return { fileId: request.fileId, filename: request.file.name, size: request.file.size, rows, header: columns.length > header.length ? columns.map((column) => column.name) : header, sample, columns };
}

async function prepare(request: Extract<SpreadsheetWorkerRequest, { kind: 'prepare' }>): Promise<Extract<SpreadsheetWorkerAnswer, { kind: 'prepared' }>> {
  const progress = progressReporter(request.requestId, request.fileId, 'checking', request.file.size);
  const gzip = new CompressionStream('gzip');
  const normalised = new Response(gzip.readable).blob();
  const writer = gzip.writable.getWriter();
  const encoder = new TextEncoder();
  const invalidLines: string[] = [INVALID_ROWS_CSV_HEADER];
  let check: ReturnType<typeof createSpreadsheetCheck> | null = null;
  let pending: string[] = [];
  let writes: Promise<void> = Promise.resolve();
  let rows = 0;
  const write = (text: string) => {
    const bytes = encoder.encode(text);
    writes = writes.then(() => writer.write(bytes));
  };
  await readRows(
    request.file,
    (cells, line) => {
      if (check === null) {
        if (isEmpty(cells)) return;
        try {
          check = createSpreadsheetCheck(cells, request.mapping, { onInvalid: (row) => invalidLines.push(invalidRowCsvLine(row)) });
        } catch (caught) {
          // The mapping does not fit this header: the check says how, in the catalogue's words.
          throw new CatalogueError(caught instanceof Error ? caught.message : String(caught));
        }
        pending.push(check.headerLine);
        return;
      }
      rows += 1;
      const out = check.addRow(cells, line);
      if (out !== null) pending.push(out);
      if (pending.length >= LINES_PER_WRITE) {
        write(pending.join(''));
        pending = [];
      }
    },
    (_rows, bytes, percent) => progress(rows, bytes, percent),
  );
  if (pending.length > 0) write(pending.join(''));
  await writes;
  await writer.close();
  progress.flush(rows, request.file.size, 100);
  const finished = check as ReturnType<typeof createSpreadsheetCheck> | null;
  if (finished === null) throw new CatalogueError(m.emptyFile);
  const result = finished.result();
  const blob = await normalised;
  return {
    requestId: request.requestId,
    kind: 'prepared',
    prepared: {
      preparedId: request.preparedId,
      fileId: request.fileId,
      validRows: result.validRows,
      invalidRows: result.invalidRows,
      duplicatesRemoved: result.duplicatesRemoved,
      invalidSample: result.invalidSample,
      preparedSize: blob.size,
    },
    normalised: blob,
    invalidRows: new Blob(invalidLines, { type: 'text/csv;charset=utf-8' }),
  };
}

function failure(caught: unknown): string {
  if (caught instanceof CatalogueError) return caught.message;
  return fillMessage(m.readFailed, { reason: caught instanceof Error ? caught.message : String(caught) });
}

scope.addEventListener('message', (event) => {
  const request = event.data;
  const run = request.kind === 'parse' ? parse(request).then((summary): SpreadsheetWorkerAnswer => ({ requestId: request.requestId, kind: 'parsed', summary })) : prepare(request);
  run.then(
    (answer) => scope.postMessage(answer),
    (caught: unknown) => scope.postMessage({ requestId: request.requestId, kind: 'failed', error: failure(caught) }),
  );
});
