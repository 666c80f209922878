import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import type { ReportExportSource } from '@shared/reports';
import { csvCell, csvLine, csvStream, excelStream } from './exports';

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
});
