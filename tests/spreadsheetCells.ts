/**
 * One table of cell kinds, written once as a CSV and once as an .xlsx: every reader of the product
 * (the shared reader itself, the server's parse worker, the desktop's worker thread) must read
 * both files to exactly `expectedRows`. Test support only.
 */
import ExcelJS from 'exceljs';

interface CellKind {
  kind: string;
  /** The cell as a CSV holds it (text as written). */
  csv: string;
  /** The cell as a workbook holds it. */
  xlsx: ExcelJS.CellValue;
  /** A number format for the workbook cell (dates). */
  numFmt?: string;
  /** The text every reader gives for this cell, from either file. */
  text: string;
}

export const CELL_KINDS: readonly CellKind[] = [
  { kind: 'text', csv: 'Asha Rao', xlsx: 'Asha Rao', text: 'Asha Rao' },
  { kind: 'text with spaces around', csv: '  Asha  ', xlsx: '  Asha  ', text: 'Asha' },
  { kind: 'non-Latin text', csv: 'नमस्ते', xlsx: 'नमस्ते', text: 'नमस्ते' },
  { kind: 'leading zeros as text', csv: '007', xlsx: '007', text: '007' },
  { kind: 'phone number as a number', csv: '919876543210', xlsx: 919876543210, text: '919876543210' },
  { kind: 'number past exponent form', csv: '1000000000000000000000', xlsx: 1e21, text: '1000000000000000000000' },
  { kind: 'decimal', csv: '12.5', xlsx: 12.5, text: '12.5' },
  { kind: 'date', csv: '2024-05-06', xlsx: new Date(Date.UTC(2024, 4, 6)), numFmt: 'yyyy-mm-dd', text: '2024-05-06' },
  { kind: 'date and time', csv: '2024-05-06 09:05', xlsx: new Date(Date.UTC(2024, 4, 6, 9, 5)), numFmt: 'yyyy-mm-dd hh:mm', text: '2024-05-06 09:05' },
  { kind: 'boolean', csv: 'TRUE', xlsx: true, text: 'TRUE' },
  { kind: 'formula with a result', csv: '2', xlsx: { formula: '1+1', result: 2 }, text: '2' },
  { kind: 'formula without a result', csv: '', xlsx: { formula: 'B1' } as ExcelJS.CellFormulaValue, text: '' },
  { kind: 'rich text', csv: 'Zoë', xlsx: { richText: [{ text: 'Zo' }, { font: { bold: true }, text: 'ë' }] }, text: 'Zoë' },
  { kind: 'error', csv: '#DIV/0!', xlsx: { error: '#DIV/0!' } as ExcelJS.CellErrorValue, text: '#DIV/0!' },
  { kind: 'hyperlink', csv: 'site', xlsx: { text: 'site', hyperlink: 'https://example.com' }, text: 'site' },
  { kind: 'empty', csv: '', xlsx: null, text: '' },
];

const HEADER = ['Kind', 'Value'];

/** The rows every reader answers for either file: the header, then each kind (an empty value dropped as a trailing empty cell). */
export const expectedRows: string[][] = [HEADER, ...CELL_KINDS.map((cell) => (cell.text === '' ? [cell.kind] : [cell.kind, cell.text]))];

export function cellKindsCsv(): Buffer {
  const quote = (value: string) => (/[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
  return Buffer.from([HEADER, ...CELL_KINDS.map((cell) => [cell.kind, cell.csv])].map((row) => row.map(quote).join(',')).join('\r\n') + '\r\n');
}

export async function cellKindsXlsx(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Cells');
  sheet.addRow(HEADER);
  for (const cell of CELL_KINDS) {
    const row = sheet.addRow([cell.kind, cell.xlsx]);
    if (cell.numFmt) row.getCell(2).numFmt = cell.numFmt;
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
