/**
 * A completed resumable upload read as a send's rows (issue 16). The raw rows stream from the
 * parse worker in batches and are turned into send entries one at a time; the caller keeps only
 * what acceptance needs (the compact recipients), never the rows. Columns are named as completing
 * the upload names them (`headerNames`: a blank header is `Column N`, a repeat gets ` (2)`), so a
 * mapping chosen from the `complete` answer means the same column here.
 */
import { headerNames } from './spreadsheets';

/** One data row: its number among the data rows (from 1, the header and empty rows not counted) and its cells. */
export interface UploadDataRow {
  row: number;
  cells: string[];
}

export class UploadSheet {
  private header: string[] | null = null;
  private names: string[] = [];

  constructor(private readonly batches: AsyncIterable<string[][]>) {}

  /**
   * The column names so far: they cover the widest row read, as the `complete` answer's columns
   * cover the widest row of the file. Naming is prefix-stable (a column's name depends only on the
   * ones before it), so widening never renames a column already seen.
   */
  get columns(): readonly string[] {
    return this.names;
  }

  /** The data rows, after the header row; iterate once. */
  async *rows(): AsyncGenerator<UploadDataRow> {
    let row = 0;
    for await (const batch of this.batches) {
      for (const cells of batch) {
        if (this.header === null) {
          this.header = cells;
          this.names = headerNames(cells);
          continue;
        }
        if (cells.length > this.names.length) this.names = headerNames(this.header, cells.length);
        row += 1;
        yield { row, cells };
      }
    }
  }

  /**
   * Whether `name` is a column of the file, or could still become one: past the header row, only
   * a wider row adds columns, and those are named `Column N` (with ` (2)`... on a repeat). Lets a
   * send refuse an unknown recipient column at its first row rather than after the whole file.
   */
  mayHaveColumn(name: string): boolean {
    return this.names.includes(name) || /^Column \d+( \(\d+\))?$/.test(name);
  }

  /** A row keyed by the column names, every column so far present ('' for an empty cell), as the `complete` sample keys them. */
  keyed(cells: readonly string[]): Record<string, string> {
    // fromEntries defines own properties, so a column named "__proto__" is data, not a prototype.
    return Object.fromEntries(this.names.map((name, i) => [name, cells[i] ?? '']));
  }
}
