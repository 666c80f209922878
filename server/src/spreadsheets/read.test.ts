import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { Readable } from 'node:stream';
import { deflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { fillMessage, messages } from '@shared/messages';
import { AppError } from '../errors';
import { cellKindsCsv, cellKindsXlsx, expectedRows } from '../../../tests/spreadsheetCells';
import { headerNames, parseSpreadsheet, readSpreadsheet, type SpreadsheetInput } from './read';

type Cell = ExcelJS.CellValue;

async function xlsx(rows: Cell[][], more?: (workbook: ExcelJS.Workbook) => void): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Recipients');
  for (const row of rows) sheet.addRow(row);
  more?.(workbook);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

const csv = (text: string, encoding: BufferEncoding = 'utf8') => Buffer.from(text, encoding);

/** The catalogue message a call fails with (it must be a 400 ValidationError on the file field). */
async function failure(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    const appError = error as AppError;
    expect(appError.status).toBe(400);
    expect(appError.field).toBe('file');
    return appError.message;
  }
  throw new Error('expected a failure');
}

async function rawRows(input: SpreadsheetInput): Promise<string[][]> {
  const rows: string[][] = [];
  for await (const row of parseSpreadsheet(input)) rows.push(row);
  return rows;
}

/** Rewrites the central-directory uncompressed size of one entry of a real zip. */
function patchDeclaredSize(zip: Buffer, entryName: string, size: number): Buffer {
  const copy = Buffer.from(zip);
  for (let at = copy.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])); at !== -1; at = copy.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), at + 4)) {
    const nameLength = copy.readUInt16LE(at + 28);
    if (copy.toString('latin1', at + 46, at + 46 + nameLength) === entryName) {
      copy.writeUInt32LE(size, at + 24);
      return copy;
    }
  }
  throw new Error(`no entry ${entryName}`);
}

describe('the one rule for cell text', { timeout: 60_000 }, () => {
  it('reads the table of cell kinds as the shared reader and the desktop do, from a CSV and an .xlsx', async () => {
    for (const file of [{ filename: 'kinds.csv', buffer: cellKindsCsv() }, { filename: 'kinds.xlsx', buffer: await cellKindsXlsx() }]) {
      const rows: string[][] = [];
      for await (const row of parseSpreadsheet(file)) rows.push(row);
      expect(rows).toEqual(expectedRows);
    }
  });
});

describe('column names', () => {
  it('names columns: empty headers, duplicates, and clashes with generated names', () => {
    expect(headerNames(['Phone', '', 'Name', 'Name', ' Name ', 'Column 2'])).toEqual([
      'Phone', 'Column 2', 'Name', 'Name (2)', 'Name (3)', 'Column 2 (2)',
    ]);
    expect(headerNames(['A'], 3)).toEqual(['A', 'Column 2', 'Column 3']);
  });
});

// Parses run in worker threads; the first start of one takes seconds on a loaded machine.
describe('readSpreadsheet: xlsx', { timeout: 60_000 }, () => {
  it('keys rows by header and keeps phone numbers as digits', async () => {
    const buffer = await xlsx([
      ['Phone', 'Name', 'City'],
      [919876543210, 'Zoë Ñúñez', 'मुंबई'],
      [14155550100, '山田 太郎', null],
      ['+91 98765 43211', '', 'Pune'],
    ]);
    const data = await readSpreadsheet({ filename: 'list.xlsx', buffer });
    expect(data.columns).toEqual(['Phone', 'Name', 'City']);
    expect(data.rows).toEqual([
      { Phone: '919876543210', Name: 'Zoë Ñúñez', City: 'मुंबई' },
      { Phone: '14155550100', Name: '山田 太郎', City: '' },
      { Phone: '+91 98765 43211', Name: '', City: 'Pune' },
    ]);
    expect(data.truncated).toBe(false);
  });

  it('reads dates, formulas, rich text and booleans; skips empty rows; names blank and repeated headers', async () => {
    const buffer = await xlsx([
      ['Phone', '', 'Name', 'Name', 'When', 'Paid'],
      [{ formula: '919876543210*1', result: 919876543210 }, 'x', { richText: [{ text: 'A' }, { text: 'b' }] }, 'c', new Date(Date.UTC(2024, 0, 31)), true],
      [],
      [null, null, null, null, null, null],
      [919876543211, null, null, null, null, false, 'extra'],
    ]);
    const data = await readSpreadsheet({ filename: 'x.XLSX', buffer });
    expect(data.columns).toEqual(['Phone', 'Column 2', 'Name', 'Name (2)', 'When', 'Paid', 'Column 7']);
    expect(data.rows).toEqual([
      { Phone: '919876543210', 'Column 2': 'x', Name: 'Ab', 'Name (2)': 'c', When: '2024-01-31', Paid: 'TRUE', 'Column 7': '' },
      { Phone: '919876543211', 'Column 2': '', Name: '', 'Name (2)': '', When: '', Paid: 'FALSE', 'Column 7': 'extra' },
    ]);
  });

  it('reads only the first worksheet', async () => {
    const buffer = await xlsx([['Phone'], [919876543210]], (workbook) => {
      workbook.addWorksheet('Other').addRow(['Nope']);
    });
    const data = await readSpreadsheet({ filename: 'a.xlsx', buffer });
    expect(data.rows).toEqual([{ Phone: '919876543210' }]);
  });

  it('streams without temporary files, also when the workbook has no shared strings', async () => {
    // exceljs (like Excel) writes the worksheet before sharedStrings.xml and styles.xml.
    const numbersOnly = await xlsx([[919876543210, 1], [919876543211, 2]]);
    const ownTempFiles = () => readdirSync(tmpdir()).filter((name) => name.startsWith(`tmp-${process.pid}-`));
    const before = ownTempFiles();
    const rows = parseSpreadsheet({ filename: 'a.xlsx', buffer: numbersOnly })[Symbol.asyncIterator]();
    expect((await rows.next()).value).toEqual(['919876543210', '1']);
    expect(ownTempFiles()).toEqual(before);
    await rows.return(undefined);
    const data = await readSpreadsheet({ filename: 'a.xlsx', buffer: numbersOnly });
    expect(data.columns).toEqual(['919876543210', '1']);
    expect(data.rows).toEqual([{ '919876543210': '919876543211', '1': '2' }]);
  });

  it('keeps a "__proto__" column as data', async () => {
    const data = await readSpreadsheet({ filename: 'a.xlsx', buffer: await xlsx([['__proto__'], ['x']]) });
    const row = data.rows[0]!;
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(Object.keys(row)).toEqual(['__proto__']);
  });

  it('sets truncated past maxRows', async () => {
    const buffer = await xlsx([['Phone'], ...Array.from({ length: 12 }, (_, i) => [919876543200 + i])]);
    const data = await readSpreadsheet({ filename: 'a.xlsx', buffer }, { maxRows: 10 });
    expect(data.rows).toHaveLength(10);
    expect(data.truncated).toBe(true);
    const exact = await readSpreadsheet({ filename: 'a.xlsx', buffer }, { maxRows: 12 });
    expect(exact.truncated).toBe(false);
  });

  it('refuses too many columns and over-long cells, but ignores empty cells far right', async () => {
    const wide = await xlsx([['a', 'b', 'c', 'd']]);
    expect(await failure(() => readSpreadsheet({ filename: 'a.xlsx', buffer: wide }, { maxColumns: 3 }))).toBe(
      fillMessage(messages.sending.tooManyColumns, { max: 3 }),
    );
    const long = await xlsx([['Phone'], ['x'.repeat(101)]]);
    expect(await failure(() => readSpreadsheet({ filename: 'a.xlsx', buffer: long }, { maxCellChars: 100 }))).toBe(
      fillMessage(messages.sending.cellTooLong, { row: 2, max: 100 }),
    );
    const spaced = await xlsx([['Phone', null, null, '  '], [919876543210]]);
    expect((await readSpreadsheet({ filename: 'a.xlsx', buffer: spaced }, { maxColumns: 1 })).columns).toEqual(['Phone']);
  });

  it('gives the spec message for a sheet without data rows', async () => {
    expect(await failure(async () => readSpreadsheet({ filename: 'a.xlsx', buffer: await xlsx([['Phone', 'Name']]) }))).toBe(
      messages.sending.noRecipientsInFile,
    );
    expect(await failure(async () => readSpreadsheet({ filename: 'a.xlsx', buffer: await xlsx([]) }))).toBe(messages.sending.noRecipientsInFile);
  });

  it('refuses zip bombs before parsing', async () => {
    const real = await xlsx([['Phone'], [919876543210]]);
    const claimed = patchDeclaredSize(real, 'xl/worksheets/sheet1.xml', 300 * 1024 * 1024);
    expect(await failure(() => readSpreadsheet({ filename: 'a.xlsx', buffer: claimed }))).toBe(messages.sending.fileTooLargeUnpacked);
  });

  it('refuses a real highly compressible sheet', async () => {
    // A valid-looking sheet padded with 20 MB of whitespace: 20 KB on disk, a ratio of about 1000.
    const sheet = Buffer.concat([Buffer.from('<worksheet><sheetData>'), Buffer.alloc(20 * 1024 * 1024, 0x20), Buffer.from('</sheetData></worksheet>')]);
    const body = deflateRawSync(sheet);
    const name = Buffer.from('xl/worksheets/sheet1.xml');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(sheet.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(sheet.length, 24);
    central.writeUInt16LE(name.length, 28);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(1, 8);
    end.writeUInt16LE(1, 10);
    end.writeUInt32LE(46 + name.length, 12);
    end.writeUInt32LE(30 + name.length + body.length, 16);
    const zip = Buffer.concat([local, name, body, central, name, end]);
    expect(await failure(() => readSpreadsheet({ filename: 'a.xlsx', buffer: zip }))).toBe(messages.sending.fileTooLargeUnpacked);
  });

  it('reports a corrupt workbook as unreadable', async () => {
    const real = await xlsx([['Phone'], [919876543210]]);
    const broken = Buffer.concat([real.subarray(0, 4), Buffer.alloc(200, 7)]);
    expect(await failure(() => readSpreadsheet({ filename: 'a.xlsx', buffer: broken }))).toBe(messages.sending.fileUnreadable);
  });
});

describe('readSpreadsheet: csv and type checks', { timeout: 60_000 }, () => {
  it('reads a CSV with a BOM, quotes, embedded commas and line breaks', async () => {
    const buffer = csv('\uFEFFPhone,Name,Note\r\n919876543210,"Doe, Jane","line 1\nline 2"\r\n\r\n,,\r\n+91 98765 43211,Zoë,\r\n');
    const data = await readSpreadsheet({ filename: 'list.csv', buffer });
    expect(data.columns).toEqual(['Phone', 'Name', 'Note']);
    expect(data.rows).toEqual([
      { Phone: '919876543210', Name: 'Doe, Jane', Note: 'line 1\nline 2' },
      { Phone: '+91 98765 43211', Name: 'Zoë', Note: '' },
    ]);
  });

  it('detects semicolon and tab delimiters', async () => {
    const semicolon = await readSpreadsheet({ filename: 'a.csv', buffer: csv('Phone;Name;City\n919876543210;Asha;Pune\n') });
    expect(semicolon.rows).toEqual([{ Phone: '919876543210', Name: 'Asha', City: 'Pune' }]);
    const tab = await readSpreadsheet({ filename: 'a.csv', buffer: csv('Phone\tName\n919876543210\tAsha\n') });
    expect(tab.rows).toEqual([{ Phone: '919876543210', Name: 'Asha' }]);
  });

  it('reads a single-column CSV and duplicate headers', async () => {
    expect((await readSpreadsheet({ filename: 'a.csv', buffer: csv('Phone\n919876543210\n919876543211') })).rows).toHaveLength(2);
    const dup = await readSpreadsheet({ filename: 'a.csv', buffer: csv('Name,Name,\na,b,c\n') });
    expect(dup.columns).toEqual(['Name', 'Name (2)', 'Column 3']);
  });

  it('reads Windows-1252 and UTF-16 text', async () => {
    const ansi = Buffer.from([...Buffer.from('Name\nZo'), 0xeb, 0x20, 0x80, 0x0a]);
    expect((await readSpreadsheet({ filename: 'a.csv', buffer: ansi })).rows).toEqual([{ Name: 'Zoë €' }]);
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Phone\tName\r\n919876543210\tमुंबई\r\n', 'utf16le')]);
    expect((await readSpreadsheet({ filename: 'a.xls', buffer: utf16 })).rows).toEqual([{ Phone: '919876543210', Name: 'मुंबई' }]);
  });

  it('reads a stream as well as a buffer', async () => {
    const stream = Readable.from([csv('Phone\n9198765'), csv('43210\n')]);
    expect((await readSpreadsheet({ filename: 'a.csv', stream })).rows).toEqual([{ Phone: '919876543210' }]);
  });

  it('refuses files over the size limit, from a buffer or a stream', async () => {
    const big = csv(`Phone\n${'919876543210\n'.repeat(100)}`);
    const limits = { maxBytes: 1000 };
    expect(await failure(() => readSpreadsheet({ filename: 'a.csv', buffer: big }, limits))).toBe(messages.sending.recipientFileTooLarge);
    let pulled = 0;
    const stream = Readable.from((function* () { for (; pulled < 1000; pulled += 1) yield big; })());
    expect(await failure(() => readSpreadsheet({ filename: 'a.csv', stream }, limits))).toBe(messages.sending.recipientFileTooLarge);
    // Reading stopped at the limit instead of draining the upload.
    expect(stream.destroyed).toBe(true);
    expect(pulled).toBeLessThan(5);
    expect(messages.sending.recipientFileTooLarge).toMatch(/^File too large/);
  });

  it('checks the extension and that the content matches it', async () => {
    const workbook = await xlsx([['Phone'], [919876543210]]);
    const ole = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(504)]);
    const cases: [string, Buffer, string][] = [
      ['list.txt', csv('Phone\n1'), messages.sending.invalidFileTypeSpreadsheet],
      ['list', csv('Phone\n1'), messages.sending.invalidFileTypeSpreadsheet],
      ['list.xlsm', workbook, messages.sending.invalidFileTypeSpreadsheet],
      ['binary.csv', Buffer.from([0x50, 0x68, 0x00, 0x01, 0x02, 0x0a]), messages.sending.fileContentMismatch],
      ['workbook.csv', workbook, messages.sending.fileContentMismatch],
      ['text.xlsx', csv('Phone\n919876543210'), messages.sending.fileContentMismatch],
      // An OLE container that holds no workbook: SheetJS (in the worker) cannot read it.
      ['legacy.xls', ole, messages.sending.fileUnreadable],
      ['protected.xlsx', ole, messages.sending.encryptedWorkbook],
      ['export.xls', csv('<html><body><table><tr><td>Phone</td></tr></table></body></html>'), messages.sending.legacyXls],
      ['binary.xls', Buffer.from([1, 2, 0, 4]), messages.sending.legacyXls],
    ];
    for (const [filename, buffer, message] of cases) {
      expect(await failure(() => readSpreadsheet({ filename, buffer })), filename).toBe(message);
    }
  });

  it('reads an .xls that is really an .xlsx or CSV text', async () => {
    const workbook = await xlsx([['Phone'], [919876543210]]);
    expect((await readSpreadsheet({ filename: 'renamed.xls', buffer: workbook })).rows).toEqual([{ Phone: '919876543210' }]);
    expect((await readSpreadsheet({ filename: 'text.XLS', buffer: csv('Phone,Name\n919876543210,A\n') })).rows).toEqual([
      { Phone: '919876543210', Name: 'A' },
    ]);
  });

  it('streams raw rows with the header first and stops at maxRows', async () => {
    const rows = parseSpreadsheet({ filename: 'a.csv', buffer: csv(`Phone\n${'919876543210\n'.repeat(50)}`) }, { maxRows: 5 });
    const seen: string[][] = [];
    for await (const row of rows) seen.push(row);
    expect(seen).toHaveLength(6);
    expect(seen[0]).toEqual(['Phone']);
    expect(rows.truncated).toBe(true);
    expect(rows.kind).toBe('csv');
    expect(await rawRows({ filename: 'a.csv', buffer: csv('\n\n  \nPhone\n\n1\n') })).toEqual([['Phone'], ['1']]);
  });

  it('refuses an empty CSV and a CSV with only a header', async () => {
    expect(await failure(() => readSpreadsheet({ filename: 'a.csv', buffer: Buffer.alloc(0) }))).toBe(messages.sending.noRecipientsInFile);
    expect(await failure(() => readSpreadsheet({ filename: 'a.csv', buffer: csv('Phone,Name\r\n') }))).toBe(messages.sending.noRecipientsInFile);
  });
});

describe('a large file', () => {
  // Correctness at size, not speed (npm run bench times a million rows, local spreadsheets). Writing
  // and reading the workbook took over 60 s beside three busy loops on a slow 2-core machine, so
  // the limit is generous: a deadline for a hang, not a figure.
  it('reads 100,000 rows from CSV and from Excel, the last one whole', { timeout: 300_000 }, async () => {
    const rows = Array.from({ length: 100_000 }, (_, i) => [919800000000 + i, `Name ${i}`, `City ${i % 50}`, i % 7]);
    const text = ['Phone,Name,City,Group', ...rows.map((r) => r.join(','))].join('\n');
    const fromCsv = await readSpreadsheet({ filename: 'big.csv', buffer: csv(text) });
    expect(fromCsv.rows).toHaveLength(100_000);
    expect(fromCsv.rows[99_999]).toEqual({ Phone: '919800099999', Name: 'Name 99999', City: 'City 49', Group: '4' });

    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Big');
    sheet.addRow(['Phone', 'Name', 'City', 'Group']);
    sheet.addRows(rows);
    const buffer = Buffer.from(await workbook.xlsx.writeBuffer());
    const fromXlsx = await readSpreadsheet({ filename: 'big.xlsx', buffer });
    expect(fromXlsx.rows).toHaveLength(100_000);
    expect(fromXlsx.rows[99_999]).toEqual({ Phone: '919800099999', Name: 'Name 99999', City: 'City 49', Group: '4' });
  });
});
