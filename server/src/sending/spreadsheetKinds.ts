/**
 * The kinds of spreadsheet a parse reads and the limits it reads them under: what the parse
 * worker pool and the readers that use it both name, so neither imports the other for it.
 */
import type { ZipLimits } from './zipGuard';

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
