/**
 * A completed resumable upload read as a send's rows. The raw rows stream from the
 * parse worker in batches and are turned into send entries one at a time; the caller keeps only
 * what acceptance needs (the compact recipients), never the rows. Columns are named as completing
 * the upload names them (`headerNames`: a blank header is `Column N`, a repeat gets ` (2)`), so a
 * mapping chosen from the `complete` answer means the same column here.
 */
import { spreadsheetColumnNames as headerNames } from '@shared/spreadsheetCheck';

/** One data row: its number among the data rows (from 1, the header and empty rows not counted) and its cells. */
export interface UploadDataRow {
  row: number;
  cells: string[];
}

export class UploadSheet {
  private header: string[] | null = null;
  private names: string[] = [];
  /** `keyedColumns`' positions of its wanted columns, for the column names they were found in. */
  private wantedFor: string[] | null = null;
  private wanted: readonly string[] = [];
  private wantedIndexes: number[] = [];

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
        if (!this.take(cells)) continue;
        row += 1;
        yield { row, cells };
      }
    }
  }

  /**
   * The data rows as they arrive, a batch at a time; iterate once, instead of `rows()`. A send from
   * a million-row upload handles each batch in one go: row by row, the async iteration and the
   * objects made per row were a third of the time between "Send" and acceptance. The
   * columns then cover the widest row of the batch, not only of the rows before: a column a later
   * row adds reads as empty in an earlier one either way.
   */
  async *dataBatches(): AsyncGenerator<UploadDataRow[]> {
    let row = 0;
    for await (const batch of this.batches) {
      const rows: UploadDataRow[] = [];
      for (const cells of batch) {
        if (!this.take(cells)) continue;
        row += 1;
        rows.push({ row, cells });
      }
      if (rows.length > 0) yield rows;
    }
  }

  /** Reads one row of the file: the first is the header (answers false); a wider row widens the column names. */
  private take(cells: string[]): boolean {
    if (this.header === null) {
      this.header = cells;
      this.names = headerNames(cells);
      return false;
    }
    if (cells.length > this.names.length) this.names = headerNames(this.header, cells.length);
    return true;
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

  /**
   * The row keyed by only `wanted` of its columns (those the file has), as `keyed` keys them: a
   * send reads the recipient and the mapped columns, not every column of a wide sheet.
   */
  keyedColumns(cells: readonly string[], wanted: readonly string[]): Record<string, string> {
    if (this.wantedFor !== this.names || this.wanted !== wanted) {
      this.wantedFor = this.names;
      this.wanted = wanted;
      this.wantedIndexes = wanted.map((name) => this.names.indexOf(name));
    }
    // No prototype: a column named "__proto__" is data here too.
    const row = Object.create(null) as Record<string, string>;
    for (let i = 0; i < wanted.length; i++) {
      const index = this.wantedIndexes[i] as number;
      if (index >= 0) row[wanted[i] as string] = cells[index] ?? '';
    }
    return row;
  }
}
