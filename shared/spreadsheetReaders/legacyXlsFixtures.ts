/**
 * Legacy .xls (BIFF8) workbooks for tests (the server's, the desktop's and the web app's), written by SheetJS (`@e965/xlsx`) rather than committed
 * as binaries. Dates are written as Excel writes them, a serial number with a date format, from
 * the UTC fields of the Date given, so the fixture does not depend on the machine's time zone.
 */
import * as XLSX from '@e965/xlsx';

/** A cell: text, a number, a boolean, a date (its UTC fields are the sheet's), or empty. */
export type XlsCell = string | number | boolean | Date | null | undefined;

const UNIX_EPOCH_SERIAL = 25_569;
const DAY_MS = 86_400_000;

function cellObject(value: XlsCell): XLSX.CellObject | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) {
    const serial = value.getTime() / DAY_MS + UNIX_EPOCH_SERIAL;
    const withTime = value.getTime() % DAY_MS !== 0;
    return { t: 'n', v: serial, z: withTime ? 'yyyy-mm-dd hh:mm' : 'yyyy-mm-dd' };
  }
  if (typeof value === 'number') return { t: 'n', v: value };
  if (typeof value === 'boolean') return { t: 'b', v: value };
  return { t: 's', v: value };
}

/** A BIFF8 workbook with one sheet per entry, in order. */
export function xlsWorkbook(sheets: { name: string; rows: XlsCell[][] }[]): Uint8Array {
  const workbook = XLSX.utils.book_new();
  for (const { name, rows } of sheets) {
    const sheet: XLSX.WorkSheet = {};
    let width = 1;
    rows.forEach((row, r) => {
      width = Math.max(width, row.length);
      row.forEach((value, c) => {
        const cell = cellObject(value);
        if (cell) sheet[XLSX.utils.encode_cell({ r, c })] = cell;
      });
    });
    sheet['!ref'] = XLSX.utils.encode_range({ s: { r: 0, c: 0 }, e: { r: Math.max(0, rows.length - 1), c: width - 1 } });
    XLSX.utils.book_append_sheet(workbook, sheet, name);
  }
  return new Uint8Array(XLSX.write(workbook, { bookType: 'biff8', type: 'array' }) as ArrayBuffer);
}

/** One sheet of rows as an .xls. */
export const xlsOf = (rows: XlsCell[][]): Uint8Array => xlsWorkbook([{ name: 'Recipients', rows }]);
