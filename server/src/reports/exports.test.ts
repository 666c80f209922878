import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import type { ReportExportSource } from '@shared/reports';
import { csvCell, csvLine, csvStream, EXCEL_COST_FORMAT, EXCEL_TIME_FORMAT, excelStream } from './exports';

function rows(count: number): ReportExportSource[] {
  return Array.from({ length: count }, (_, i) => ({ template: 'promo', recipient: String(919800000000 + i), status: 'read', deliveredAt: null, readAt: null, error: null, sentAt: '2026-11-24 10:05:00', campaign: 'Diwali', cost: 0.785, messageId: `msg_${i + 1}` }));
}

async function* batches(all: ReportExportSource[], size: number): AsyncGenerator<ReportExportSource[]> {
  for (let start = 0; start < all.length; start += size) yield all.slice(start, start + size);
}

async function collect(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

describe('CSV cells', () => {
  it('quotes commas, quotes and line breaks', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('one\ntwo')).toBe('"one\ntwo"');
    expect(csvCell('ग्राहक')).toBe('ग्राहक');
  });

  it('neutralises cells a spreadsheet would run as formulas', () => {
    expect(['=1+1', '+91', '-5', '@SUM(A1)', '\tx', '\rx'].map(csvCell)).toEqual(["'=1+1", "'+91", "'-5", "'@SUM(A1)", "'\tx", '"\'\rx"']);
    expect(csvCell('=A1,"x"')).toBe('"\'=A1,""x"""');
    expect(csvCell('a=b')).toBe('a=b');
  });

  it('ends lines with CRLF', () => {
    expect(csvLine(['a', 'b,c'])).toBe('a,"b,c"\r\n');
  });

  it('streams a BOM, the heading and every row', async () => {
    const text = (await collect(csvStream(batches(rows(2_500), 1_000)))).toString('utf8');
    const lines = text.split('\r\n');
    expect(lines[0]).toBe('\uFEFFTemplate,Recipient,Status,Delivered At (IST),Read At (IST),Error,Sent At (IST),Campaign,Cost (INR),Message ID');
    expect(lines[1]).toBe('promo,919800000000,READ,Not delivered,Not read,Success,2026-11-24 10:05:00,Diwali,0.785,msg_1');
    expect(lines).toHaveLength(2_502);
  });
});

describe('Excel export', () => {
  it('starts a new sheet, with its heading, when one is full', async () => {
    const errors: unknown[] = [];
    const bytes = await collect(excelStream(batches(rows(7), 2), { rowsPerSheet: 3, onError: (error) => errors.push(error) }));
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
    expect(errors).toEqual([]);
    expect(workbook.worksheets.map((sheet) => [sheet.name, sheet.rowCount])).toEqual([
      ['WhatsApp Reports', 4],
      ['WhatsApp Reports 2', 4],
      ['WhatsApp Reports 3', 2],
    ]);
    expect(workbook.worksheets[2]?.getRow(2).getCell(2).value).toBe('919800000006');
  });

  it('writes a formula-like value as text', async () => {
    const bytes = await collect(excelStream(batches([{ template: 't', recipient: '1', status: 'failed', deliveredAt: null, readAt: null, error: '=HYPERLINK("x")', sentAt: null, campaign: 'c', cost: 0, messageId: 'msg_1' }], 1), { onError: () => undefined }));
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
    const cell = workbook.worksheets[0]?.getRow(2).getCell(6);
    expect(cell?.type).toBe(ExcelJS.ValueType.String);
    expect(cell?.value).toBe('=HYPERLINK("x")');
  });

  it('writes the cost as a number in rupees and the times as IST date cells, so SUM works, while the CSV keeps text', async () => {
    const row: ReportExportSource = { template: 'promo', recipient: '919800000000', status: 'read', deliveredAt: '2026-11-24 10:05:07', readAt: null, error: null, sentAt: '2026-11-24 10:05:00', campaign: 'Diwali', cost: 0.785, messageId: 'msg_1' };
    const bytes = await collect(excelStream(batches([row, { ...row, cost: 1.2 }], 2), { onError: () => undefined }));
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    const cost = sheet?.getRow(2).getCell(9);
    expect(cost?.type).toBe(ExcelJS.ValueType.Number);
    expect(cost?.value).toBe(0.785);
    expect(cost?.numFmt).toBe(EXCEL_COST_FORMAT);
    expect(sheet?.getRow(3).getCell(9).value).toBe(1.2);
    const sent = sheet?.getRow(2).getCell(7);
    expect(sent?.type).toBe(ExcelJS.ValueType.Date);
    // The IST wall clock, as Excel shows it (its dates have no zone).
    expect((sent?.value as Date).toISOString()).toBe('2026-11-24T10:05:00.000Z');
    expect(sent?.numFmt).toBe(EXCEL_TIME_FORMAT);
    expect(sheet?.getRow(2).getCell(4).type).toBe(ExcelJS.ValueType.Date);
    expect(sheet?.getRow(2).getCell(5).value).toBe('Not read');
    expect(sheet?.getRow(1).getCell(9).value).toBe('Cost (INR)');

    const csv = (await collect(csvStream(batches([row], 1)))).toString('utf8').split('\r\n')[1];
    expect(csv).toBe('promo,919800000000,READ,2026-11-24 10:05:07,Not read,Success,2026-11-24 10:05:00,Diwali,0.785,msg_1');
  });
});
