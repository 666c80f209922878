import { CONTACTS } from '@shared/constants';
import { csvLine } from '@shared/csv';
import { ATTRIBUTE_NAME_PATTERN, type TContactAttributeType, type TContactInput } from '@shared/schemas/contacts';

/** What one column of an import file becomes. */
export type ColumnUse = { kind: 'ignore' } | { kind: 'phone' } | { kind: 'name' } | { kind: 'tags' } | { kind: 'attribute'; name: string; type: TContactAttributeType };

export interface ImportMapping {
  /** By column index. */
  columns: ColumnUse[];
  /** Tags every imported contact gets. */
  extraTags: string[];
}

/** A row the import could not take, with why. */
export interface InvalidImportRow {
  line: number;
  cells: string[];
  error: string;
}

/** The file's header cells as column names: an empty one is named by its place. */
export function columnNames(header: readonly string[]): string[] {
  return header.map((cell, i) => (cell.trim() === '' ? `Column ${i + 1}` : cell.trim()));
}

/** A column name as an attribute name the server takes: lower snake case, starting with a letter. */
export function attributeNameOf(column: string): string {
  const snake = column
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  const named = /^[a-z]/.test(snake) ? snake : `col_${snake}`;
  return named.slice(0, CONTACTS.attributeNameMaxLength);
}

/** The type a column's first value suggests for a new attribute. */
export function guessedType(sample: string): TContactAttributeType {
  if (/^\d{4}-\d{2}-\d{2}$/.test(sample.trim())) return 'date';
  if (sample.trim() !== '' && Number.isFinite(Number(sample.trim())) && !/^0\d/.test(sample.trim())) return 'number';
  return 'text';
}

/**
 * The first guess at a file's mapping: the number from a column named like one, the name from
 * "name", tags from "tags", every other column an attribute of its own name (an existing
 * attribute keeps its type).
 */
export function guessMapping(names: readonly string[], sample: readonly string[], known: ReadonlyMap<string, TContactAttributeType>): ImportMapping {
  let phoneTaken = false;
  let nameTaken = false;
  let tagsTaken = false;
  const columns = names.map((column, i): ColumnUse => {
    const lower = column.toLowerCase();
    if (!phoneTaken && /phone|mobile|number|whatsapp|contact/.test(lower)) {
      phoneTaken = true;
      return { kind: 'phone' };
    }
    if (!nameTaken && /^(full )?name$/.test(lower)) {
      nameTaken = true;
      return { kind: 'name' };
    }
    if (!tagsTaken && /^tags?$/.test(lower)) {
      tagsTaken = true;
      return { kind: 'tags' };
    }
    const name = attributeNameOf(column);
    return { kind: 'attribute', name, type: known.get(name) ?? guessedType(sample[i] ?? '') };
  });
  return { columns, extraTags: [] };
}

/** Why a mapping cannot start, or null: one phone column and valid attribute names. */
export function mappingProblem(mapping: ImportMapping): 'phone' | 'attribute' | null {
  if (!mapping.columns.some((use) => use.kind === 'phone')) return 'phone';
  if (mapping.columns.some((use) => use.kind === 'attribute' && !ATTRIBUTE_NAME_PATTERN.test(use.name))) return 'attribute';
  return null;
}

/** Tags written in one cell: separated by commas or semicolons. */
export function splitTags(cell: string): string[] {
  return cell
    .split(/[,;]/)
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
}

/**
 * One row as the bulk call's contact, or null when it has no number (reported locally). Empty
 * cells are left out, so an update never blanks what the book holds.
 */
export function rowContact(cells: readonly string[], mapping: ImportMapping): TContactInput | null {
  let phone = '';
  let name: string | undefined;
  const tags = [...mapping.extraTags];
  const attributes: Record<string, string> = {};
  mapping.columns.forEach((use, i) => {
    const cell = (cells[i] ?? '').trim();
    if (cell === '') return;
    if (use.kind === 'phone') phone = cell;
    else if (use.kind === 'name') name = cell;
    else if (use.kind === 'tags') tags.push(...splitTags(cell));
    else if (use.kind === 'attribute') attributes[use.name] = cell;
  });
  if (phone === '') return null;
  return {
    phone,
    ...(name !== undefined ? { name } : {}),
    ...(Object.keys(attributes).length > 0 ? { attributes } : {}),
    ...(tags.length > 0 ? { tags: [...new Set(tags)] } : {}),
  };
}

/** The invalid rows as a CSV the user can fix and import again: the file's columns, then the reason. */
export function invalidRowsCsv(header: readonly string[], rows: readonly InvalidImportRow[]): string {
  return [csvLine(['Line', ...header, 'Reason']), ...rows.map((row) => csvLine([String(row.line), ...header.map((_, i) => row.cells[i] ?? ''), row.error]))].join('');
}
