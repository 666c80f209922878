/**
 * What the spreadsheet worker does, as plain async functions so they can be tested in
 * any thread; spreadsheetWorker.ts runs them in a worker thread for the main process.
 *
 * - `parseSpreadsheetFile`: one pass over the file for its header, a sample of the first data rows,
 *   the row count and each column's statistics.
 * - `prepareSpreadsheetFile`: one pass checking a mapping over every row (shared/spreadsheetCheck.ts)
 *   and writing the normalised rows as a gzip CSV, the invalid rows as a CSV beside it.
 *
 * Rows are trimmed and their trailing empty cells dropped, as the server reads an upload, and rows
 * with no value at all are skipped (not counted), so the figures here are the server's figures.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { messages } from '@shared/messages';
import { cellText } from '@shared/sheetRows';
import {
  createColumnStats,
  createSpreadsheetCheck,
  INVALID_ROWS_CSV_HEADER,
  invalidRowCsvLine,
  SPREADSHEET_SAMPLE_ROWS,
  spreadsheetColumnNames,
  type SpreadsheetCheckResult,
} from '@shared/spreadsheetCheck';
import type { SpreadsheetColumnStats, SpreadsheetMapping, SpreadsheetPhase } from '@shared/spreadsheets';
import { readSpreadsheet, spreadsheetError } from './readSpreadsheet';

/** Progress as the worker reports it (the main side adds the file's id). */
export interface JobProgress {
  phase: SpreadsheetPhase;
  rows: number;
  bytes: number;
  totalBytes: number;
  percent: number;
}

export type ProgressListener = (progress: JobProgress) => void;

/** Progress events are at most this often (plus one at the end). */
export const PROGRESS_INTERVAL_MS = 100;

export interface ParsedFile {
  rows: number;
  header: string[];
  sample: Record<string, string>[];
  columns: SpreadsheetColumnStats[];
}

function progressReporter(phase: SpreadsheetPhase, onProgress: ProgressListener, now: () => number = Date.now) {
  let last = 0;
  let rows = 0;
  let bytes = 0;
  let totalBytes = 0;
  const send = () => {
    last = now();
    onProgress({ phase, rows, bytes, totalBytes, percent: totalBytes > 0 ? Math.min(100, Math.round((bytes / totalBytes) * 1000) / 10) : 0 });
  };
  return {
    row() {
      rows += 1;
      // Checking the clock every row would cost more than the rows themselves.
      if ((rows & 1023) === 0 && now() - last >= PROGRESS_INTERVAL_MS) send();
    },
    bytes(read: number, total: number) {
      bytes = read;
      totalBytes = total;
      if (now() - last >= PROGRESS_INTERVAL_MS) send();
    },
    done() {
      bytes = totalBytes;
      send();
    },
  };
}

/** Header, sample, row count and column statistics of the file's first sheet. */
export async function parseSpreadsheetFile(path: string, onProgress: ProgressListener, signal?: AbortSignal): Promise<ParsedFile> {
  const progress = progressReporter('parsing', onProgress);
  let header: string[] | null = null;
  let rows = 0;
  let width = 0;
  const sampleCells: string[][] = [];
  let stats: ReturnType<typeof createColumnStats> | null = null;
  await readSpreadsheet(path, {
    signal,
    onBytes: progress.bytes,
    // The reader hands cells trimmed, without trailing empty ones: [] is an empty row.
    onRow: (cells) => {
      if (cells.length === 0) return;
      if (header === null) {
        header = cells;
        width = cells.length;
        stats = createColumnStats(cells);
        return;
      }
      rows += 1;
      if (cells.length > width) width = cells.length;
      if (sampleCells.length < SPREADSHEET_SAMPLE_ROWS) sampleCells.push(cells);
      stats?.add(cells);
      progress.row();
    },
  });
  const headerCells: string[] | null = header;
  if (headerCells === null || rows === 0 || stats === null) throw spreadsheetError(messages.sending.noRecipientsInFile);
  progress.done();
  const names = spreadsheetColumnNames(headerCells, width);
  const columnStats = (stats as ReturnType<typeof createColumnStats>).result();
  return {
    rows,
    header: names,
    sample: sampleCells.map((cells) => Object.fromEntries(names.map((name, i) => [name, cellText(cells[i] ?? '')]))),
    columns: columnStats,
  };
}

export interface PrepareOutput {
  /** The normalised rows, gzip-compressed CSV. */
  normalisedPath: string;
  /** Every invalid row: `line,value,reason`. */
  invalidPath: string;
}

export interface PreparedFileResult extends SpreadsheetCheckResult {
  /** Size in bytes of the gzip CSV written. */
  preparedSize: number;
}

/** Writes text in blocks, waiting for the stream to drain when it asks to. */
class BlockWriter {
  private block = '';
  constructor(private readonly stream: Writable) {}

  write(text: string): void {
    this.block += text;
  }

  async flush(): Promise<void> {
    if (this.block === '') return;
    const ok = this.stream.write(this.block);
    this.block = '';
    if (!ok) await new Promise<void>((resolve) => this.stream.once('drain', resolve));
  }

  async end(): Promise<void> {
    await this.flush();
    await new Promise<void>((resolve, reject) => {
      this.stream.once('error', reject);
      this.stream.end(resolve);
    });
  }
}

/** A file stream and the promise of its `close` (the bytes are on disk then). */
function fileStream(path: string): { stream: WriteStream; closed: Promise<void> } {
  const stream = createWriteStream(path);
  const closed = new Promise<void>((resolve, reject) => {
    stream.once('close', resolve);
    stream.once('error', reject);
  });
  return { stream, closed };
}

/**
 * Checks `mapping` over every row of the file and writes the normalised gzip CSV and the invalid
 * rows CSV. `header` is the file's column names as the parse gave them (covering its widest row);
 * without it, the names of the header row are used.
 */
export async function prepareSpreadsheetFile(
  path: string,
  mapping: SpreadsheetMapping,
  output: PrepareOutput,
  onProgress: ProgressListener,
  options: { header?: readonly string[]; signal?: AbortSignal } = {},
): Promise<PreparedFileResult> {
  const progress = progressReporter('checking', onProgress);
  const normalisedFile = fileStream(output.normalisedPath);
  const gzip = createGzip();
  gzip.pipe(normalisedFile.stream);
  gzip.once('error', (error) => normalisedFile.stream.destroy(error));
  const invalidFile = fileStream(output.invalidPath);
  const normalised = new BlockWriter(gzip);
  const invalid = new BlockWriter(invalidFile.stream);
  invalid.write(INVALID_ROWS_CSV_HEADER);
  let check: ReturnType<typeof createSpreadsheetCheck> | null = null;
  try {
    await readSpreadsheet(path, {
      signal: options.signal,
      onBytes: progress.bytes,
      onRow: (cells, line) => {
        if (cells.length === 0) return;
        if (check === null) {
          try {
            check = createSpreadsheetCheck(options.header ?? spreadsheetColumnNames(cells), mapping, { onInvalid: (row) => invalid.write(invalidRowCsvLine(row)) });
          } catch (error) {
            // A mapping the file cannot satisfy: the check's message is the catalogue's text.
            throw spreadsheetError(error instanceof Error ? error.message : messages.spreadsheets.unreadable);
          }
          normalised.write(check.headerLine);
          return;
        }
        const written = check.addRow(cells, line);
        if (written !== null) normalised.write(written);
        progress.row();
      },
      afterChunk: async () => {
        await normalised.flush();
        await invalid.flush();
      },
    });
    const done: ReturnType<typeof createSpreadsheetCheck> | null = check;
    if (done === null) throw spreadsheetError(messages.sending.noRecipientsInFile);
    const result = (done as ReturnType<typeof createSpreadsheetCheck>).result();
    if (result.validRows + result.invalidRows + result.duplicatesRemoved === 0) throw spreadsheetError(messages.sending.noRecipientsInFile);
    progress.done();
    onProgress({ phase: 'writing', rows: result.validRows, bytes: 0, totalBytes: 0, percent: 100 });
    await Promise.all([normalised.end(), invalid.end()]);
    await Promise.all([normalisedFile.closed, invalidFile.closed]);
    return { ...result, preparedSize: (await stat(output.normalisedPath)).size };
  } catch (error) {
    gzip.destroy();
    normalisedFile.stream.destroy();
    invalidFile.stream.destroy();
    throw error;
  }
}
