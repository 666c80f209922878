/**
 * The local spreadsheet module's interface (issue 16, built by the "sheet-parse" work): the IPC
 * handlers in ../ipc/spreadsheets.ts code against exactly these shapes. Paths stay in the main
 * process; the renderer only ever holds the opaque `fileId` and `preparedId`.
 */
import type { PreparedSpreadsheet, SpreadsheetFileRef, SpreadsheetMapping, SpreadsheetProgress, SpreadsheetSummary } from '@shared/spreadsheets';

/** A normalised gzip CSV written by `prepare`, ready to upload. */
export interface PreparedFile {
  preparedId: string;
  path: string;
  filename: string;
  size: number;
}

export interface LocalSpreadsheets {
  open(path: string): Promise<SpreadsheetFileRef>;
  parse(fileId: string, onProgress: (p: SpreadsheetProgress) => void): Promise<SpreadsheetSummary>;
  prepare(fileId: string, mapping: SpreadsheetMapping, onProgress: (p: SpreadsheetProgress) => void): Promise<PreparedSpreadsheet>;
  preparedFile(preparedId: string): PreparedFile | undefined;
  writeInvalidRows(preparedId: string, targetPath: string): Promise<void>;
  close(): Promise<void>;
}

export interface LocalSpreadsheetsOptions {
  /** Where the normalised files are written: `<userData>/spreadsheets` in the app. */
  workDir: string;
}
