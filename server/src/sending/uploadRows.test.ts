import { describe, expect, it } from 'vitest';
import { UploadSheet } from './uploadRows';

async function* batches(...list: string[][][]): AsyncGenerator<string[][]> {
  for (const batch of list) yield batch;
}

describe('UploadSheet', () => {
  it('numbers the data rows across batches after the header row and keys them by the header', async () => {
    const sheet = new UploadSheet(batches([['phone', 'name'], ['1', 'A']], [['2', 'B']]));
    const seen: [number, Record<string, string>][] = [];
    for await (const { row, cells } of sheet.rows()) seen.push([row, sheet.keyed(cells)]);
    expect(seen).toEqual([
      [1, { phone: '1', name: 'A' }],
      [2, { phone: '2', name: 'B' }],
    ]);
  });

  it('names columns as completing the upload does, widening without renaming the ones seen', async () => {
    const sheet = new UploadSheet(batches([['phone', '', 'phone'], ['1'], ['2', 'x', 'y', 'z']]));
    const keyed: Record<string, string>[] = [];
    for await (const { cells } of sheet.rows()) keyed.push(sheet.keyed(cells));
    expect(keyed[0]).toEqual({ phone: '1', 'Column 2': '', 'phone (2)': '' });
    expect(keyed[1]).toEqual({ phone: '2', 'Column 2': 'x', 'phone (2)': 'y', 'Column 4': 'z' });
    expect(sheet.columns).toEqual(['phone', 'Column 2', 'phone (2)', 'Column 4']);
    expect(sheet.mayHaveColumn('phone (2)')).toBe(true);
    expect(sheet.mayHaveColumn('Column 9')).toBe(true);
    expect(sheet.mayHaveColumn('mobile')).toBe(false);
  });

  it('keeps a column named __proto__ as data', async () => {
    const sheet = new UploadSheet(batches([['__proto__'], ['1']]));
    for await (const { cells } of sheet.rows()) expect(Object.hasOwn(sheet.keyed(cells), '__proto__')).toBe(true);
  });

  it('hands the data rows over a batch at a time, numbered as rows() numbers them', async () => {
    const sheet = new UploadSheet(batches([['phone', 'name'], ['1', 'A'], ['2', 'B']], [], [['3', 'C', 'extra']]));
    const seen: [number, number[]][] = [];
    for await (const rows of sheet.dataBatches()) seen.push([rows.length, rows.map((r) => r.row)]);
    // The header alone and the empty batch yield nothing.
    expect(seen).toEqual([
      [2, [1, 2]],
      [1, [3]],
    ]);
    expect(sheet.columns).toEqual(['phone', 'name', 'Column 3']);
  });

  it('keys a row by only the wanted columns, as keyed() keys them, a later widening included', async () => {
    const sheet = new UploadSheet(batches([['phone', 'name', 'city', '__proto__'], ['1', 'A', 'Pune', 'p'], ['2', 'B', 'Agra', 'q', 'w']]));
    const wanted = ['phone', 'city', '__proto__', 'Column 5', 'mobile'];
    const rows: Record<string, string>[] = [];
    for await (const batch of sheet.dataBatches()) for (const { cells } of batch) rows.push(sheet.keyedColumns(cells, wanted));
    expect(rows.map((row) => Object.fromEntries(Object.entries(row).filter(([key]) => key !== '__proto__')))).toEqual([
      // The batch's widest row named "Column 5": empty in the narrower row, as keyed() would give it.
      { phone: '1', city: 'Pune', 'Column 5': '' },
      { phone: '2', city: 'Agra', 'Column 5': 'w' },
    ]);
    expect(rows.every((row) => Object.hasOwn(row, '__proto__'))).toBe(true);
    expect(rows.map((row) => row['__proto__'])).toEqual(['p', 'q']);
    expect(rows.some((row) => Object.hasOwn(row, 'mobile'))).toBe(false);
  });
});
