/**
 * Legacy Excel workbooks (.xls: BIFF5/BIFF8 in an OLE container) read through SheetJS 0.20.3 as
 * republished by `@e965/xlsx` (docs/decisions/2026-12-07-xls-through-sheetjs-0-20-3.md). The
 * registry's own `xlsx` stops at 0.18.5, before the fixes for prototype pollution (CVE-2023-30533)
 * and ReDoS (CVE-2024-22363).
 *
 * One reader for the three places that open an .xls: the server's parse worker, the desktop's
 * spreadsheet worker thread and the web app's Web Worker. Each imports this module lazily from the
 * worker it runs in, so SheetJS reads untrusted bytes off the main thread and stays out of the
 * server's thread and the web app's first load. Environment-free (bytes in, rows out). BIFF cannot
 * be streamed (the OLE container is read by sector chains), so the file is read whole, under a
 * size cap; BIFF8 holds at most 65,536 rows and 256 columns, under every row limit.
 *
 * Cells follow the one rule of ./reader.ts, as the .xlsx reader makes them: numbers through
 * `numberText` (phone numbers without an exponent), a number whose format shows a date (the .xlsx
 * reader's `isDateFormat`) becomes the date the sheet shows (built in UTC from the serial),
 * booleans TRUE/FALSE, errors their text (`#DIV/0!`), formulas their cached result, empty cells ''.
 */
import * as XLSX from '@e965/xlsx';
import { messages } from '../messages';
import { dateText, numberText } from '../sheetRows';
import { isDateFormat } from './xlsx';

/** Days from the 1900 date system's day 0 to 1970-01-01, and the 1904 system's offset (exceljs's figures). */
const UNIX_EPOCH_SERIAL = 25_569;
const DATE_1904_OFFSET = 1_462;
const DAY_MS = 24 * 3_600 * 1_000;

/** A date cell's serial as a Date whose UTC fields are the sheet's wall clock. */
function serialDate(serial: number, date1904: boolean): Date {
  return new Date(Math.round((serial - UNIX_EPOCH_SERIAL + (date1904 ? DATE_1904_OFFSET : 0)) * DAY_MS));
}

/** One SheetJS cell as text, by the rule the .xlsx reader follows. */
export function legacyCellText(cell: XLSX.CellObject | null | undefined, date1904: boolean): string {
  if (!cell) return '';
  switch (cell.t) {
    case 's':
      return typeof cell.v === 'string' ? cell.v : String(cell.v ?? '');
    case 'n': {
      if (typeof cell.v !== 'number') return '';
      const format = typeof cell.z === 'string' ? cell.z : '';
      return isDateFormat(format) ? dateText(serialDate(cell.v, date1904)) : numberText(cell.v);
    }
    case 'b':
      return cell.v ? 'TRUE' : 'FALSE';
    case 'e':
      return cell.w ?? '';
    case 'd':
      return cell.v instanceof Date ? dateText(cell.v) : '';
    default:
      // 'z': a stub (a formatted cell without a value).
      return '';
  }
}

/**
 * SheetJS's words for a workbook it will not open without its password (a BIFF file with a
 * password, or an encrypted .xlsx in its OLE wrapper). Not its "Unsupported ZIP encryption", which it
 * says of bytes it misread as a zip.
 */
export function isPasswordError(error: unknown): boolean {
  return error instanceof Error && /password-protected|ECMA-376 Encrypted/i.test(error.message);
}

/**
 * The first sheet's rows as text, in order, one array per sheet row (empty rows included as empty
 * arrays: the caller skips them). Throws SheetJS's own error for a file it cannot read.
 */
export function* legacyWorkbookRows(content: Uint8Array): Generator<string[]> {
  const workbook = XLSX.read(content, {
    type: 'array',
    // The first sheet only, dense rows, number formats kept (to tell dates), nothing else built.
    sheets: 0,
    dense: true,
    cellNF: true,
    cellDates: false,
    cellFormula: false,
    cellHTML: false,
    cellStyles: false,
    bookVBA: false,
    WTF: false,
  });
  const name = workbook.SheetNames[0];
  const sheet = name === undefined ? undefined : workbook.Sheets[name];
  if (!sheet) return;
  const date1904 = Boolean(workbook.Workbook?.WBProps?.date1904);
  const rows = sheet['!data'] ?? [];
  for (let r = 0; r < rows.length; r += 1) {
    const row = rows[r];
    if (!row) {
      yield [];
      continue;
    }
    const cells = new Array<string>(row.length);
    for (let c = 0; c < row.length; c += 1) cells[c] = legacyCellText(row[c], date1904);
    yield cells;
  }
}

/**
 * `legacyWorkbookRows` for the local readers: a file SheetJS refuses becomes `refuse` of the
 * catalogue's words for it (password-protected, or unreadable), the words the server's parse
 * worker answers for the same file.
 */
export function* legacyRowsOrRefusal(content: Uint8Array, refuse: (text: string) => Error): Generator<string[]> {
  const rows = legacyWorkbookRows(content);
  for (;;) {
    let next: IteratorResult<string[]>;
    try {
      next = rows.next();
    } catch (error) {
      throw refuse(isPasswordError(error) ? messages.sending.encryptedWorkbook : messages.sending.fileUnreadable);
    }
    if (next.done) return;
    yield next.value;
  }
}
