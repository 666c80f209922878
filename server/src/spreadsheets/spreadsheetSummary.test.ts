import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { messages } from '@shared/messages';
import { AppError } from '../errors';
import { summariseSpreadsheetFile, type SpreadsheetKind } from './read';

const dir = mkdtempSync(path.join(tmpdir(), 'sandesh-summary-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let fileCounter = 0;
function file(content: Buffer): string {
  fileCounter += 1;
  const at = path.join(dir, `file-${fileCounter}`);
  writeFileSync(at, content);
  return at;
}

const summary = (content: Buffer, kind: SpreadsheetKind, gzip = false, sampleRows = 3) =>
  summariseSpreadsheetFile({ path: file(content), kind, gzip }, sampleRows);

describe('summariseSpreadsheetFile (resumable uploads read from disk in a parse worker)', () => {
  const lines = ['phone,name', ...Array.from({ length: 5_000 }, (_, i) => `91980000${String(i).padStart(4, '0')},Name ${i}`)];
  const text = `${lines.join('\n')}\n`;

  it('counts every data row of a streamed CSV and keys a sample of the first rows', async () => {
    const result = await summary(Buffer.from(text), 'csv');
    expect(result).toEqual({
      columns: ['phone', 'name'],
      rows: 5_000,
      sample: [
        { phone: '919800000000', name: 'Name 0' },
        { phone: '919800000001', name: 'Name 1' },
        { phone: '919800000002', name: 'Name 2' },
      ],
      truncated: false,
    });
  });

  it('reads gzip-compressed CSV the same', async () => {
    const result = await summary(gzipSync(Buffer.from(text)), 'csv', true);
    expect(result.rows).toBe(5_000);
    expect(result.sample[2]).toEqual({ phone: '919800000002', name: 'Name 2' });
  });

  it('decides the encoding over the whole stream: windows-1252 and UTF-16 with its mark', async () => {
    // A valid UTF-8 start and one windows-1252 byte far into the file.
    const cp1252 = Buffer.concat([Buffer.from(`${text}919811111111,Ren`), Buffer.from([0xe9]), Buffer.from('e\n')]);
    const result = await summary(cp1252, 'csv', false, 10_000);
    expect(result.sample.at(-1)).toEqual({ phone: '919811111111', name: 'Renée' });
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('phone\tname\n919800000001\tÅsa\n', 'utf16le')]);
    expect((await summary(utf16, 'csv')).sample).toEqual([{ phone: '919800000001', name: 'Åsa' }]);
  });

  it('takes the columns from the widest row anywhere in the file, past the sample', async () => {
    const result = await summary(Buffer.from('phone\n1\n2\n3\n4,extra\n'), 'csv', false, 1);
    expect(result.columns).toEqual(['phone', 'Column 2']);
    expect(result.sample).toEqual([{ phone: '1', 'Column 2': '' }]);
    expect(result.rows).toBe(4);
  });

  it('reads the first worksheet of an .xlsx file', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Recipients');
    sheet.addRow(['phone', 'city']);
    for (let i = 0; i < 50; i += 1) sheet.addRow([919800000000 + i, `City ${i}`]);
    const result = await summary(Buffer.from(await workbook.xlsx.writeBuffer()), 'xlsx');
    expect(result.rows).toBe(50);
    expect(result.sample[1]).toEqual({ phone: '919800000001', city: 'City 1' });
  });

  it('marks a file past maxRows as truncated', async () => {
    const result = await summariseSpreadsheetFile({ path: file(Buffer.from(text)), kind: 'csv', gzip: false }, 2, { maxRows: 100 });
    expect(result.truncated).toBe(true);
  });

  it('refuses a header without data, and a corrupt gzip stream, with catalogue words', async () => {
    const failure = async (run: Promise<unknown>) => {
      const error = await run.then(() => null, (caught: unknown) => caught);
      expect(error).toBeInstanceOf(AppError);
      return (error as AppError).message;
    };
    expect(await failure(summary(Buffer.from('phone\n'), 'csv'))).toBe(messages.sending.noRecipientsInFile);
    const corrupt = gzipSync(Buffer.from(text));
    corrupt.fill(0x41, 200, 400);
    expect(await failure(summary(corrupt, 'csv', true))).toBe(messages.sending.fileUnreadable);
  });
});
