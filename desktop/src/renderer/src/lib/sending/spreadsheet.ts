/**
 * Spreadsheets on the send screens (spec 002 §5, §8 "Upload", "Import"): which files the pickers
 * take, the parse-excel answer, and a cell as text by the one rule the server sends with.
 */
import { SENDING } from '@shared/constants';
import { messages } from '@shared/messages';
import { MB } from './setup';

const s = messages.sending;

export { cellText } from '@shared/sheetRows';

export type SheetRow = Record<string, unknown>;

export interface ParsedSheet {
  rows: SheetRow[];
  columns: string[];
  totalRows: number;
  truncated: boolean;
}

/**
 * The parse-excel answer, checked (spec §5: without success and data it is 'Invalid response
 * format'). `totalRows` and `truncated` are the product's additions and default sensibly.
 */
export function readParsedSheet(body: unknown): ParsedSheet {
  const answer = (typeof body === 'object' && body !== null ? body : {}) as { success?: unknown; data?: unknown; error?: unknown };
  if (answer.success !== true || typeof answer.data !== 'object' || answer.data === null) {
    throw new Error(typeof answer.error === 'string' && answer.error ? answer.error : s.invalidResponseFormat);
  }
  const data = answer.data as { rows?: unknown; columns?: unknown; totalRows?: unknown; truncated?: unknown };
  if (!Array.isArray(data.rows) || !Array.isArray(data.columns)) throw new Error(s.invalidResponseFormat);
  const rows = data.rows.filter((row): row is SheetRow => typeof row === 'object' && row !== null && !Array.isArray(row));
  const columns = data.columns.map(String);
  return {
    rows,
    columns,
    totalRows: typeof data.totalRows === 'number' ? data.totalRows : rows.length,
    truncated: data.truncated === true,
  };
}

// ---------------------------------------------------------------------------------------------
// Files

const SPREADSHEET_EXTENSIONS = ['.xlsx', '.xls', '.csv'] as const;

/** What the spreadsheet pickers offer (a hint: the checks below and the server decide). */
export const SPREADSHEET_ACCEPT =
  '.xlsx,.xls,.csv,text/csv,application/vnd.ms-excel,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

function isSpreadsheetName(name: string): boolean {
  const lower = name.toLowerCase();
  return SPREADSHEET_EXTENSIONS.some((extension) => lower.endsWith(extension));
}

/** Customize Message's upload (spec §5): the type by its name, then the 10 MB limit. */
export function spreadsheetFileError(file: { name: string; size: number }): string | null {
  if (!isSpreadsheetName(file.name)) return s.invalidFileTypeSpreadsheet;
  if (file.size > SENDING.recipientFileMaxMb * MB) return s.recipientFileTooLarge;
  return null;
}

/** Quick Send's import (spec §8 "Import": 'Invalid file type', 'File too large'). */
export function importFileError(file: { name: string; size: number }): string | null {
  if (!isSpreadsheetName(file.name)) return s.importInvalidFileType;
  if (file.size > SENDING.recipientFileMaxMb * MB) return s.importFileTooLarge;
  return null;
}
