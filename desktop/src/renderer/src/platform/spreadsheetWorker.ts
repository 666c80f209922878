/**
 * The web shell's spreadsheet worker: reads a CSV, a gzip CSV, an .xlsx or a legacy .xls off the
 * page's thread through the one shared reader (shared/spreadsheetReaders/reader.ts, the server's
 * and the desktop's too), the file handed to it as a Blob and the browser's DecompressionStream as
 * its inflaters; summarises it with progress; and checks a mapping over every row with the shared
 * spreadsheetCheck, writing the normalised rows gzip-compressed (CompressionStream) and the invalid
 * rows as CSV. SheetJS (for .xls) is loaded by the reader only for such a file, so its chunk is not
 * part of the app's first load.
 */
import { fillMessage, messages } from '@shared/messages';
import {
  createColumnStats,
  createSpreadsheetCheck,
  INVALID_ROWS_CSV_HEADER,
  invalidRowCsvLine,
  SPREADSHEET_SAMPLE_ROWS,
  spreadsheetColumnNames,
} from '@shared/spreadsheetCheck';
import { readSpreadsheetBatches, SpreadsheetRefusal } from '@shared/spreadsheetReaders/reader';
import type { SpreadsheetPhase, SpreadsheetProgress, SpreadsheetSummary } from '@shared/spreadsheets';
import { blobSource, browserInflaters } from './browserSpreadsheetSource';
import type { SpreadsheetWorkerAnswer, SpreadsheetWorkerRequest } from './spreadsheetWorkerProtocol';

const m = messages.sheetScreens;
/** Progress events at most this often, so that a million rows do not flood the page. */
const PROGRESS_EVERY_MS = 100;
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

/** Every row of the file with its line as the user sees it, whatever its format. */
async function readRows(file: File, onRow: RowSink, onProgress: ProgressSink): Promise<void> {
  let rows = 0;
  try {
    for await (const batch of readSpreadsheetBatches(blobSource(file), browserInflaters, { filename: file.name })) {
      for (let i = 0; i < batch.rows.length; i += 1) onRow(batch.rows[i] ?? [], batch.lines[i] ?? 0);
      rows += batch.rows.length;
      onProgress(rows, batch.bytes, batch.totalBytes === 0 ? 100 : (batch.bytes / batch.totalBytes) * 100);
    }
  } catch (caught) {
    if (caught instanceof SpreadsheetRefusal) throw new CatalogueError(caught.reason === 'unknown_type' ? m.unsupportedType : caught.message);
    throw caught;
  }
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
