import { Readable } from 'node:stream';
import { createGunzip, createInflateRaw, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { messages } from '../messages';
import { cellKindsCsv, cellKindsXlsx, expectedRows } from '../../tests/spreadsheetCells';
import { memorySource, readAllRows, readSpreadsheetBatches, SpreadsheetRefusal, type SpreadsheetInflaters } from './reader';

const through = (input: AsyncIterable<Uint8Array>, transform: NodeJS.ReadWriteStream) => Readable.from(input).pipe(transform) as unknown as AsyncIterable<Uint8Array>;
const inflaters: SpreadsheetInflaters = {
  inflateRaw: (input) => through(input, createInflateRaw()),
  gunzip: (input) => through(input, createGunzip()),
};

describe('the one spreadsheet reader', () => {
  it('reads every kind of cell to the same text from a CSV, a gzip CSV and an .xlsx', async () => {
    const csv = cellKindsCsv();
    expect(await readAllRows(memorySource(csv), inflaters)).toEqual(expectedRows);
    expect(await readAllRows(memorySource(gzipSync(csv)), inflaters)).toEqual(expectedRows);
    // Small chunks: rows and characters cut across chunk ends read the same.
    expect(await readAllRows(memorySource(await cellKindsXlsx(), 7), inflaters)).toEqual(expectedRows);
  });

  it('hands rows on in batches with their lines and progress, empty rows as []', async () => {
    const batches = [];
    for await (const batch of readSpreadsheetBatches(memorySource(Buffer.from('Phone\n\n 919876543210 \n')), inflaters)) batches.push(batch);
    expect(batches.flatMap((batch) => batch.rows)).toEqual([['Phone'], [], ['919876543210']]);
    expect(batches.flatMap((batch) => batch.lines)).toEqual([1, 2, 3]);
    expect(batches.at(-1)?.bytes).toBe(batches.at(-1)?.totalBytes);
  });

  it('refuses a value past the column limit, a file that is no spreadsheet, and a password-protected .xlsx', async () => {
    await expect(readAllRows(memorySource(Buffer.from('a,b,c\n')), inflaters, { maxColumns: 2 })).rejects.toThrow('The file has too many columns (at most 2).');
    await expect(readAllRows(memorySource(Buffer.from([1, 0, 2])), inflaters)).rejects.toThrow(messages.spreadsheets.unknownFileType);
    const ole = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]);
    const refusal = await readAllRows(memorySource(ole), inflaters, { filename: 'locked.xlsx' }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(SpreadsheetRefusal);
    expect((refusal as SpreadsheetRefusal).reason).toBe('encrypted');
  });
});
