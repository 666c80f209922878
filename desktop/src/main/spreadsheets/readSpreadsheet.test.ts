import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillMessage, messages } from '@shared/messages';
import { xlsOf } from '@shared/spreadsheetReaders/legacyXlsFixtures';
import { cellKindsCsv, cellKindsXlsx, expectedRows } from '../../../../tests/spreadsheetCells';
import { readSpreadsheet, spreadsheetKind } from './readSpreadsheet';
import { TEST_HEADER, testRowText, workbookZip, writeTestCsv, writeTestXlsx, zipOf } from './testFiles';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sandesh-read-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function fileOf(name: string, content: Buffer | string): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, content);
  return file;
}

async function rowsOf(file: string, options: { maxColumns?: number } = {}): Promise<[number, string[]][]> {
  const rows: [number, string[]][] = [];
  await readSpreadsheet(file, { onRow: (cells, line) => rows.push([line, cells.map((cell) => cell.trim())]), ...options });
  return rows;
}

describe('readSpreadsheet: the one rule for cell text', () => {
  it('reads the table of cell kinds as the shared reader and the server do, from a CSV and an .xlsx', async () => {
    for (const file of [await fileOf('kinds.csv', cellKindsCsv()), await fileOf('kinds.xlsx', await cellKindsXlsx())]) {
      expect((await rowsOf(file)).map(([, cells]) => cells).filter((cells) => cells.length > 0)).toEqual(expectedRows);
    }
  });
});

describe('readSpreadsheet: CSV', () => {
  it('reads quotes, CRLF and a byte-order mark, gzip-compressed or not, by content', async () => {
    const text = '\ufeffPhone,Name\r\n"98765 43210","Rao, ""Asha"""\r\n\r\n919876543211,Ravi\r\n';
    const expected = [
      [1, ['Phone', 'Name']],
      [2, ['98765 43210', 'Rao, "Asha"']],
      [3, []],
      [4, ['919876543211', 'Ravi']],
    ];
    expect(await rowsOf(await fileOf('plain.txt', text))).toEqual(expected);
    const gzipped = await fileOf('packed.csv', gzipSync(Buffer.from(text)));
    expect(await spreadsheetKind(gzipped)).toBe('csv-gzip');
    expect(await rowsOf(gzipped)).toEqual(expected);
  });

  it('reads a windows-1252 file as Excel saved it', async () => {
    expect(await rowsOf(await fileOf('ansi.csv', Buffer.from([0x4e, 0x61, 0x6d, 0x65, 0x0d, 0x0a, 0x5a, 0x6f, 0xeb, 0x20, 0x80])))).toEqual([
      [1, ['Name']],
      [2, ['Zoë €']],
    ]);
  });

  it('reads 20,000 generated rows in order across many chunks', async () => {
    const file = path.join(dir, 'many.csv');
    await writeTestCsv(file, 20_000);
    const rows = await rowsOf(file);
    expect(rows).toHaveLength(20_001);
    expect(rows[0]).toEqual([1, TEST_HEADER]);
    expect(rows[12_345]).toEqual([12_346, testRowText(12_344)]);
    expect(rows[20_000]).toEqual([20_001, testRowText(19_999)]);
  });
});

describe('readSpreadsheet: XLSX', () => {
  it('reads a workbook written by exceljs with shared strings, numbers and dates', async () => {
    const file = path.join(dir, 'shared.xlsx');
    await writeTestXlsx(file, 500, { sharedStrings: true });
    const rows = await rowsOf(file);
    expect(rows).toHaveLength(501);
    expect(rows[0]).toEqual([1, TEST_HEADER]);
    expect(rows[1]).toEqual([2, testRowText(0)]);
    expect(rows[500]).toEqual([501, testRowText(499)]);
  });

  it('reads inline strings, empty rows, sparse cells and a date-time', async () => {
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path.join(dir, 'inline.xlsx'), useSharedStrings: false, useStyles: true });
    const sheet = workbook.addWorksheet('Data');
    sheet.addRow(['Phone', 'Name', 'When']).commit();
    sheet.addRow([919876543210, 'Asha', new Date(Date.UTC(2024, 4, 6, 9, 5))]).commit();
    sheet.getRow(4).getCell(3).value = 'only C';
    sheet.getRow(4).commit();
    sheet.addRow(['+91 98765 43211', { richText: [{ text: 'Ra' }, { text: 'vi', font: { bold: true } }] }]).commit();
    sheet.commit();
    await workbook.commit();
    expect(await rowsOf(path.join(dir, 'inline.xlsx'))).toEqual([
      [1, ['Phone', 'Name', 'When']],
      [2, ['919876543210', 'Asha', '2024-05-06 09:05']],
      [4, ['', '', 'only C']],
      [5, ['+91 98765 43211', 'Ravi']],
    ]);
  });

  it('reads the first sheet in tab order from a hand-made workbook', async () => {
    const file = await fileOf('hand.xlsx', workbookZip('<row r="1"><c r="A1" t="inlineStr"><is><t>Phone</t></is></c></row><row r="2"><c r="A2"><v>9876543210</v></c></row>'));
    expect(await rowsOf(file)).toEqual([
      [1, ['Phone']],
      [2, ['9876543210']],
    ]);
  });

  it('refuses cells past the column limit with the catalogue text', async () => {
    const file = await fileOf('wide.xlsx', workbookZip('<row r="1"><c r="F1"><v>1</v></c></row>'));
    await expect(rowsOf(file, { maxColumns: 5 })).rejects.toThrow(fillMessage(messages.sending.tooManyColumns, { max: 5 }));
  });
});

describe('readSpreadsheet: refusals', () => {
  it('refuses a worksheet that inflates past its declared size (a zip bomb)', async () => {
    const rows = '<row r="1"><c r="A1"><v>1</v></c></row>'.repeat(1000);
    const file = await fileOf('bomb.xlsx', workbookZip(rows, [], { declaredSize: 200 }));
    await expect(rowsOf(file)).rejects.toThrow(messages.sending.fileTooLargeUnpacked);
  });

  it('refuses an entry whose declared ratio is a bomb before inflating it', async () => {
    const huge = Buffer.alloc(30 * 1024 * 1024, 0x20);
    const file = await fileOf('ratio.xlsx', workbookZip('', [{ name: 'xl/sharedStrings.xml', data: huge }]));
    await expect(rowsOf(file)).rejects.toThrow(messages.sending.fileTooLargeUnpacked);
  });

  it('refuses legacy and unknown files, and a zip that is not a workbook, with catalogue texts', async () => {
    const ole = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]);
    await expect(rowsOf(await fileOf('old.xls', ole))).rejects.toThrow(messages.sending.fileUnreadable);
    await expect(rowsOf(await fileOf('locked.xlsx', ole))).rejects.toThrow(messages.sending.encryptedWorkbook);
    await expect(rowsOf(await fileOf('binary.csv', Buffer.from([1, 2, 0, 3])))).rejects.toThrow(messages.spreadsheets.unknownFileType);
    await expect(rowsOf(await fileOf('packed-binary.csv', gzipSync(Buffer.from([0x50, 0x4b, 3, 4, 0, 0]))))).rejects.toThrow(messages.spreadsheets.unknownFileType);
    await expect(rowsOf(await fileOf('plain.zip', zipOf([{ name: 'readme.txt', data: Buffer.from('hi') }])))).rejects.toThrow(messages.sending.fileUnreadable);
    await expect(rowsOf(await fileOf('cut.xlsx', workbookZip('<row r="1"/>').subarray(0, 100)))).rejects.toThrow(messages.sending.fileUnreadable);
  });
});

describe('readSpreadsheet: legacy .xls', () => {
  it('reads the first sheet of an .xls through the shared reader, by content whatever the name', async () => {
    const bytes = Buffer.from(xlsOf([['Phone', 'Name', 'Joined'], [919876543210, 'Asha', new Date(Date.UTC(2024, 4, 6))], [], ['+91 98765 43211', 'Ravi', null]]));
    const expected = [
      [1, ['Phone', 'Name', 'Joined']],
      [2, ['919876543210', 'Asha', '2024-05-06']],
      [3, []],
      [4, ['+91 98765 43211', 'Ravi']],
    ];
    expect(await spreadsheetKind(await fileOf('book.xls', bytes))).toBe('xls');
    expect(await rowsOf(await fileOf('book.xls', bytes))).toEqual(expected);
    expect(await rowsOf(await fileOf('book.csv', bytes))).toEqual(expected);
  });

  it('refuses an .xls wider than the column limit, and a cut one, with catalogue texts', async () => {
    const wide = await fileOf('wide.xls', Buffer.from(xlsOf([['a', 'b', 'c'], [1, 2, 3]])));
    await expect(rowsOf(wide, { maxColumns: 2 })).rejects.toThrow(fillMessage(messages.sending.tooManyColumns, { max: 2 }));
    const good = xlsOf([['Phone'], [919876543210]]);
    await expect(rowsOf(await fileOf('cut.xls', Buffer.from(good.subarray(0, 520))))).rejects.toThrow(messages.sending.fileUnreadable);
  });
});
