/**
 * Messages between the main process and the spreadsheet worker thread (one job per worker).
 * Errors cross as catalogue texts: an Error's class does not survive postMessage.
 */
import type { SpreadsheetMapping } from '@shared/spreadsheets';
import type { JobProgress, ParsedFile, PreparedFileResult, PrepareOutput } from './jobs';

export type ToSpreadsheetWorker =
  | { type: 'parse'; path: string }
  | { type: 'prepare'; path: string; mapping: SpreadsheetMapping; output: PrepareOutput; header?: string[] };

export type FromSpreadsheetWorker =
  | { type: 'progress'; progress: JobProgress }
  | { type: 'parsed'; result: ParsedFile }
  | { type: 'prepared'; result: PreparedFileResult }
  | { type: 'failed'; message: string };
