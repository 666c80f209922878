/**
 * The limits of a server-side spreadsheet parse and the kinds of file it reads: what the parse
 * worker, its pool and the readers agree on, kept below all of them.
 */
import { SENDING } from '@shared/constants';
import { DEFAULT_ZIP_LIMITS, type ZipLimits } from './zipGuard';

export type SpreadsheetKind = 'xlsx' | 'xls' | 'csv';

export interface SpreadsheetLimits extends ZipLimits {
  maxBytes: number;
  /** Data rows (the header row is not counted). Rows past it are dropped and `truncated` is set. */
  maxRows: number;
  /** Columns that hold data; empty cells further right are ignored, a value there is refused. */
  maxColumns: number;
  maxCellChars: number;
  /**
   * Characters of cell text the parse may hand back in all. A cell holding a shared string is one
   * string in the worker but a copy of it once posted to the main thread (and once more in a JSON
   * answer), so a small workbook repeating one long string would otherwise multiply in memory.
   */
  maxTotalChars: number;
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
