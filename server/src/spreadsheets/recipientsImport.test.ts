import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { fillMessage, messages } from '@shared/messages';
import { AppError } from '../errors';
import { importRecipients } from './recipientsImport';

async function xlsx(rows: ExcelJS.CellValue[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Numbers');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

async function failure(run: () => Promise<unknown>): Promise<AppError> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error('expected a failure');
}

// Parses run in worker threads; the first start of one takes seconds on a loaded machine.
describe('importRecipients', { timeout: 60_000 }, () => {
  it('takes numbers from the first column of an xlsx, numeric or text, skipping the header', async () => {
    const buffer = await xlsx([
      ['Phone', 'Name'],
      [919876543210, 'Asha'],
      ['+91 98765-43211', 'Ravi'],
      [919876543210, 'Asha again'],
      ['not a number', 'x'],
      [null, 'no number'],
      [12345, 'short'],
    ]);
    expect(await importRecipients({ filename: 'numbers.xlsx', buffer })).toEqual({
      valid_numbers: ['919876543210', '919876543211'],
      valid_count: 2,
      invalid_count: 2,
    });
  });

  it('keeps the first row when it is already a number (no header)', async () => {
    const buffer = Buffer.from('919876543210\n919876543211\n919876543212\n');
    const result = await importRecipients({ filename: 'numbers.csv', buffer });
    expect(result.valid_numbers).toEqual(['919876543210', '919876543211', '919876543212']);
    expect(result.invalid_count).toBe(0);
  });

  it('ignores other columns, even when they hold numbers', async () => {
    const buffer = Buffer.from('Name;Phone\nAsha;919876543210\n');
    const error = await failure(() => importRecipients({ filename: 'a.csv', buffer }));
    expect(error.message).toBe(messages.sending.noValidNumbers);
    expect(error.details).toEqual([{ field: 'file', message: messages.sending.importHint }]);
  });

  it('splits a cell holding several numbers like a typed list', async () => {
    const buffer = Buffer.from('Phone\n"919876543210, 919876543211"\n"919876543212\n919876543210"\n');
    const result = await importRecipients({ filename: 'a.csv', buffer });
    expect(result.valid_numbers).toEqual(['919876543210', '919876543211', '919876543212']);
  });

  it('refuses a file with no valid numbers, and passes parse errors through', async () => {
    expect((await failure(() => importRecipients({ filename: 'a.csv', buffer: Buffer.from('Phone\nabc\n') }))).message).toBe(
      messages.sending.noValidNumbers,
    );
    expect((await failure(() => importRecipients({ filename: 'a.pdf', buffer: Buffer.from('x') }))).message).toBe(
      messages.sending.invalidFileTypeSpreadsheet,
    );
    const big = Buffer.alloc(11 * 1024 * 1024, 0x31);
    expect((await failure(() => importRecipients({ filename: 'a.csv', buffer: big }))).message).toBe(messages.sending.recipientFileTooLarge);
  });

  it('refuses rather than silently dropping recipients past the row limit', async () => {
    const buffer = Buffer.from(Array.from({ length: 30 }, (_, i) => String(919876543200 + i)).join('\n'));
    expect((await failure(() => importRecipients({ filename: 'a.csv', buffer }, { maxRows: 10 }))).message).toBe(
      fillMessage(messages.sending.tooManyRows, { max: 10 }),
    );
  });

  it('handles a large csv of bare numbers', async () => {
    const lines = Array.from({ length: 200_000 }, (_, i) => `+91 ${9_800_000_000 + (i % 150_000)}`);
    const result = await importRecipients({ filename: 'big.csv', buffer: Buffer.from(`Mobile\n${lines.join('\n')}`) });
    expect(result.valid_count).toBe(150_000);
    expect(result.invalid_count).toBe(0);
  });
});
