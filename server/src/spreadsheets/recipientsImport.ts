/**
 * Quick Send's "import from file": the numbers in the first column of a .csv/.xlsx/.xls upload
 * (spec 002 §8: "numbers go in the first column with the country code"), normalised and
 * de-duplicated with the same rules as typed recipient lists (shared/phone.ts).
 */
import { fillMessage, messages } from '@shared/messages';
import { parseRecipientList } from '@shared/phone';
import { ValidationError } from '../errors';
import { parseSpreadsheet, type ParseOptions, type SpreadsheetInput, type SpreadsheetLimits } from './read';

/** The spec's recipient import result (§3). */
export interface RecipientImportResult {
  valid_numbers: string[];
  valid_count: number;
  invalid_count: number;
}

/**
 * The 10 MB upload cap is the real bound here: a file of bare numbers holds about a million rows,
 * and only one string per distinct number is kept, so the row limit is set above that rather than
 * silently dropping recipients.
 */
export const IMPORT_MAX_ROWS = 2_000_000;

export async function importRecipients(
  file: SpreadsheetInput,
  limits: Partial<SpreadsheetLimits> = {},
  options: Omit<ParseOptions, 'firstColumnOnly'> = {},
): Promise<RecipientImportResult> {
  const maxRows = limits.maxRows ?? IMPORT_MAX_ROWS;
  // Only the first column is read, so only it crosses from the parse worker.
  const rows = parseSpreadsheet(file, { ...limits, maxRows }, { ...options, firstColumnOnly: true });
  const seen = new Set<string>();
  const valid: string[] = [];
  let invalid = 0;
  let first = true;
  for await (const row of rows) {
    // A cell may hold several numbers ("a, b" or one per line) like the typed list does.
    const list = parseRecipientList(row[0] ?? '');
    const isFirst = first;
    first = false;
    // The first row is a header ("Phone", "Mobile number") unless it already holds a number;
    // files of bare numbers are common, so its number must not be lost.
    if (isFirst && list.valid.length === 0) continue;
    invalid += list.invalid.length;
    for (const phone of list.valid) {
      if (seen.has(phone)) continue;
      seen.add(phone);
      valid.push(phone);
    }
  }
  if (rows.truncated) {
    throw ValidationError('file', fillMessage(messages.sending.tooManyRows, { max: maxRows }));
  }
  if (valid.length === 0) {
    throw ValidationError('file', messages.sending.noValidNumbers, [{ field: 'file', message: messages.sending.importHint }]);
  }
  return { valid_numbers: valid, valid_count: valid.length, invalid_count: invalid };
}
