/**
 * The one .xls reader (shared/spreadsheetReaders/legacyXls.ts), under the name the parse worker's
 * reader imports lazily, so SheetJS is only ever loaded in the worker, never the server's thread.
 */
export { isDateFormat, isPasswordError, legacyCellText, legacyWorkbookRows } from '@shared/spreadsheetReaders/legacyXls';
