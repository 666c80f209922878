/** Messages between the web shell's spreadsheets module and its Web Worker (spreadsheetWorker.ts). */
import type { PreparedSpreadsheet, SpreadsheetMapping, SpreadsheetProgress, SpreadsheetSummary } from '@shared/spreadsheets';

export type SpreadsheetWorkerRequest =
  | { requestId: number; kind: 'parse'; fileId: string; file: File }
  | { requestId: number; kind: 'prepare'; fileId: string; file: File; mapping: SpreadsheetMapping; preparedId: string };

/** A prepared file's bytes stay in the page as Blobs: the normalised gzip CSV and the invalid rows CSV. */
export interface PreparedBlobs {
  prepared: PreparedSpreadsheet;
  normalised: Blob;
  invalidRows: Blob;
}

export type SpreadsheetWorkerAnswer =
  | { requestId: number; kind: 'progress'; progress: SpreadsheetProgress }
  | { requestId: number; kind: 'parsed'; summary: SpreadsheetSummary }
  | ({ requestId: number; kind: 'prepared' } & PreparedBlobs)
  | { requestId: number; kind: 'failed'; error: string };
