/** The shared .xls fixture writer (shared/spreadsheetReaders/legacyXlsFixtures.ts) answering Buffers, as the server's readers take them. */
import { xlsWorkbook as sharedWorkbook, type XlsCell } from '@shared/spreadsheetReaders/legacyXlsFixtures';

export type { XlsCell };

export const xlsWorkbook = (sheets: { name: string; rows: XlsCell[][] }[]): Buffer => Buffer.from(sharedWorkbook(sheets));

export const xlsOf = (rows: XlsCell[][]): Buffer => xlsWorkbook([{ name: 'Recipients', rows }]);
