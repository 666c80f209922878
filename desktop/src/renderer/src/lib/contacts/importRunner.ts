import { CONTACTS } from '@shared/constants';
import { messages } from '@shared/messages';
import { readSpreadsheetBatches } from '@shared/spreadsheetReaders/reader';
import type { TContactAttributeType, TContactBulkResponse, TContactInput } from '@shared/schemas/contacts';
import { blobSource, browserInflaters } from '../../platform/browserSpreadsheetSource';
import { rowContact, type ImportMapping, type InvalidImportRow } from './contactImport';

/** The file's header and its first row, read with the shared spreadsheet reader (the send screens' own). */
export async function readHeader(file: File): Promise<{ header: string[]; sample: string[] }> {
  const rows: string[][] = [];
  for await (const batch of readSpreadsheetBatches(blobSource(file), browserInflaters, { filename: file.name })) {
    for (const row of batch.rows) if (row.length > 0) rows.push(row);
    if (rows.length >= 2) break;
  }
  return { header: rows[0] ?? [], sample: rows[1] ?? [] };
}

export interface ImportProgress {
  /** Data rows read so far. */
  read: number;
  /** Rows the server has answered for. */
  done: number;
}

export interface ImportResult {
  created: number;
  updated: number;
  skipped: number;
  invalid: InvalidImportRow[];
}

export interface ImportDeps {
  defineAttribute(name: string, type: TContactAttributeType): Promise<unknown>;
  bulk(contacts: TContactInput[], existing: 'update' | 'skip'): Promise<TContactBulkResponse>;
}

/**
 * Imports every row of the file: attributes the mapping names that are not defined yet are
 * defined first with the chosen type, then the rows go to the bulk call in parts of its limit,
 * one after another. Rows without a number, and rows the server refuses, come back with their
 * line, cells and reason.
 */
export async function importContacts(
  file: File,
  mapping: ImportMapping,
  existing: 'update' | 'skip',
  known: ReadonlySet<string>,
  deps: ImportDeps,
  onProgress: (progress: ImportProgress) => void,
): Promise<ImportResult> {
  for (const use of mapping.columns) {
    if (use.kind === 'attribute' && !known.has(use.name)) await deps.defineAttribute(use.name, use.type);
  }
  const result: ImportResult = { created: 0, updated: 0, skipped: 0, invalid: [] };
  let chunk: { contact: TContactInput; line: number; cells: string[] }[] = [];
  let read = 0;
  let done = 0;
  let header = true;
  const flush = async () => {
    if (chunk.length === 0) return;
    const sent = chunk;
    chunk = [];
    const answer = await deps.bulk(
      sent.map((entry) => entry.contact),
      existing,
    );
    result.created += answer.created;
    result.updated += answer.updated;
    result.skipped += answer.skipped;
    for (const problem of answer.invalid) {
      const row = sent[problem.index];
      if (row) result.invalid.push({ line: row.line, cells: row.cells, error: problem.error });
    }
    done += sent.length;
    onProgress({ read, done });
  };
  for await (const batch of readSpreadsheetBatches(blobSource(file), browserInflaters, { filename: file.name })) {
    for (let i = 0; i < batch.rows.length; i += 1) {
      const cells = batch.rows[i] ?? [];
      if (cells.length === 0) continue;
      if (header) {
        header = false;
        continue;
      }
      read += 1;
      const line = batch.lines[i] ?? 0;
      const contact = rowContact(cells, mapping);
      if (!contact) {
        result.invalid.push({ line, cells, error: messages.contactScreens.noPhone });
        done += 1;
        continue;
      }
      chunk.push({ contact, line, cells });
      if (chunk.length >= CONTACTS.bulkMax) await flush();
    }
    onProgress({ read, done });
  }
  await flush();
  result.invalid.sort((a, b) => a.line - b.line);
  return result;
}
