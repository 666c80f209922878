/**
 * Spreadsheets on the send screens (spec 002 §8 "Import"): which files Quick Send's import takes.
 * Customize Message and Quick Send's spreadsheet read files on this computer instead (localSheet.ts).
 */
import { SENDING } from '@shared/constants';
import { messages } from '@shared/messages';
import { MB } from './setup';

const s = messages.sending;

export type SheetRow = Record<string, unknown>;

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

/** Quick Send's import (spec §8 "Import": 'Invalid file type', 'File too large'). */
export function importFileError(file: { name: string; size: number }): string | null {
  if (!isSpreadsheetName(file.name)) return s.importInvalidFileType;
  if (file.size > SENDING.recipientFileMaxMb * MB) return s.importFileTooLarge;
  return null;
}
