import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { fillMessage, messages } from '@shared/messages';
import { xlsOf, xlsWorkbook, type XlsCell } from '../../test/legacyXls';
import { AppError } from '../errors';
import { readSpreadsheet } from './read';

async function xlsx(rows: XlsCell[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Recipients');
  for (const row of rows) {
    const added = sheet.addRow(row.map((cell) => cell ?? null));
    // exceljs writes a Date with its own date format; no other style is needed.
    added.eachCell((cell) => {
      if (cell.value instanceof Date) cell.numFmt = cell.value.getTime() % 86_400_000 === 0 ? 'yyyy-mm-dd' : 'yyyy-mm-dd hh:mm';
    });
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

async function refusal(run: () => Promise<unknown>): Promise<AppError> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error('expected a refusal');
}

const rows: XlsCell[][] = [
  ['Phone', 'Name', 'Joined', 'Amount', 'Note', 'Paid'],
  [919876543210, '  Zoë Ñúñez ', new Date(Date.UTC(2024, 4, 6)), 12.5, null, true],
  [447700900123456, 'मुंबई', new Date(Date.UTC(2024, 0, 31, 9, 5)), 0.0000001, '', false],
  [],
  ['+91 98765 43211', null, null, 123456789012345, 'x', null, 'extra'],
];

describe('legacy .xls workbooks through SheetJS (in the parse worker)', { timeout: 120_000 }, () => {
  it('reads text, numbers, long phone numbers, dates and empty cells, skipping empty rows', async () => {
    const data = await readSpreadsheet({ filename: 'recipients.xls', buffer: xlsOf(rows) });
    expect(data.columns).toEqual(['Phone', 'Name', 'Joined', 'Amount', 'Note', 'Paid', 'Column 7']);
    expect(data.rows).toEqual([
      { Phone: '919876543210', Name: 'Zoë Ñúñez', Joined: '2024-05-06', Amount: '12.5', Note: '', Paid: 'TRUE', 'Column 7': '' },
      { Phone: '447700900123456', Name: 'मुंबई', Joined: '2024-01-31 09:05', Amount: '0.0000001', Note: '', Paid: 'FALSE', 'Column 7': '' },
      { Phone: '+91 98765 43211', Name: '', Joined: '', Amount: '123456789012345', Note: 'x', Paid: '', 'Column 7': 'extra' },
    ]);
    expect(data.truncated).toBe(false);
  });

  it('gives every cell the same text as the same sheet saved as .xlsx', async () => {
    const [legacy, modern] = await Promise.all([
      readSpreadsheet({ filename: 'a.xls', buffer: xlsOf(rows) }),
      readSpreadsheet({ filename: 'a.xlsx', buffer: await xlsx(rows) }),
    ]);
    expect(legacy).toEqual(modern);
  });

  it('reads only the first sheet', async () => {
    const buffer = xlsWorkbook([
      { name: 'First', rows: [['Phone'], [919876543210]] },
      { name: 'Second', rows: [['Nope'], [1]] },
    ]);
    expect((await readSpreadsheet({ filename: 'two.xls', buffer })).rows).toEqual([{ Phone: '919876543210' }]);
  });

  it('applies the same limits: rows past maxRows, too many columns, no data rows', async () => {
    const many = xlsOf([['Phone'], ...Array.from({ length: 30 }, (_, i) => [919800000000 + i])]);
    const cut = await readSpreadsheet({ filename: 'many.xls', buffer: many }, { maxRows: 10 });
    expect([cut.rows.length, cut.truncated]).toEqual([10, true]);
    const wide = await refusal(() => readSpreadsheet({ filename: 'wide.xls', buffer: xlsOf([['a', 'b', 'c'], [1, 2, 3]]) }, { maxColumns: 2 }));
    expect(wide.message).toBe(fillMessage(messages.sending.tooManyColumns, { max: 2 }));
    const empty = await refusal(() => readSpreadsheet({ filename: 'empty.xls', buffer: xlsOf([['Phone']]) }));
    expect(empty.message).toBe(messages.sending.noRecipientsInFile);
  });

  it('answers a malformed .xls with the catalogue words, as a 400 on the file', async () => {
    const good = xlsOf(rows);
    const broken = [
      Buffer.concat([good.subarray(0, 8), Buffer.alloc(600, 0xff)]),
      Buffer.concat([good.subarray(0, 700), Buffer.alloc(good.length - 700)]),
      good.subarray(0, 520),
    ];
    for (const [i, buffer] of broken.entries()) {
      const error = await refusal(() => readSpreadsheet({ filename: `broken-${i}.xls`, buffer }));
      expect([error.status, error.field, error.message], `broken ${i}`).toEqual([400, 'file', messages.sending.fileUnreadable]);
    }
  });
});
