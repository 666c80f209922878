/**
 * A spreadsheet checked against a mapping, row by row: the one core the desktop's parse
 * worker and the browser's Web Worker both run, so the rows counted, the invalid rows listed and
 * the duplicates removed are the same in both shells. Environment-free: no Node, no DOM.
 *
 * The normalised file it writes is what the resumable upload carries: the recipient column first,
 * then each mapped column once, all under their names from the file's header row, the numbers in
 * their stored form. A send naming the upload (`uploadId`) then names the same `recipientColumn`
 * and `variableMappings` the user chose here, and the server reads the same columns.
 */
import { csvLine } from './csv';
import { fillMessage, messages } from './messages';
import { parameterProblem, parameterProblemText } from './parameterLimits';
import { checkPhone } from './phone';
import { RepeatIndex, valuesDigest } from './repeatRows';
import { normaliseMappings } from './sheetRows';
import type { InvalidSpreadsheetRow, SpreadsheetColumnStats, SpreadsheetMapping } from './spreadsheets';

/** How many invalid rows a result lists (all of them go to the invalid-rows CSV). */
export const INVALID_SAMPLE_MAX = 1_000;
/** Distinct values counted per column before the count stops (SpreadsheetColumnStats.distinctCapped). */
export const DISTINCT_VALUES_MAX = 10_000;
/** Data rows a summary shows as its sample. */
export const SPREADSHEET_SAMPLE_ROWS = 20;

/**
 * Column names from the header row, as the server names an upload's columns: trimmed; an empty
 * one is `Column N` (N from 1); a repeat gets ` (2)`, ` (3)`... so every name is distinct. Naming
 * is prefix-stable: a wider `width` never renames a column already named.
 */
export function spreadsheetColumnNames(header: readonly string[], width = header.length): string[] {
  const names: string[] = [];
  const used = new Set<string>();
  for (let i = 0; i < width; i += 1) {
    const base = (header[i] ?? '').trim() || `Column ${i + 1}`;
    let name = base;
    for (let n = 2; used.has(name); n += 1) name = `${base} (${n})`;
    used.add(name);
    names.push(name);
  }
  return names;
}

/**
 * A cell of the normalised data file. Only RFC 4180 quoting: the file is read back by the server as
 * data, so a value starting with `=` or `-` must stay as written (csvCell's formula guard would put
 * a quote mark into the message). `;` and tabs are quoted too, so the server's delimiter guess can
 * only ever find the comma.
 */
export function dataCsvCell(value: string): string {
  return /[",;\t\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export function dataCsvLine(cells: readonly string[]): string {
  let line = '';
  for (let i = 0; i < cells.length; i += 1) line += (i === 0 ? '' : ',') + dataCsvCell(cells[i] ?? '');
  return `${line}\r\n`;
}

/** The invalid-rows CSV a user downloads and opens in a spreadsheet (so cells are formula-guarded). */
export const INVALID_ROWS_CSV_HEADER = csvLine(['line', 'value', 'reason']);

export function invalidRowCsvLine(row: InvalidSpreadsheetRow): string {
  return csvLine([String(row.line), row.value, row.reason]);
}

/** The variables of a mapping with a column, by variable name (`{{1}}` and `1` are one variable). */
function mappedVariables(mapping: SpreadsheetMapping): [variable: string, column: string][] {
  return Object.entries(normaliseMappings(mapping.variableMappings));
}

/**
 * What is wrong with a mapping for this header, as catalogue texts (empty when it can be used):
 * the recipient column must be chosen and exist, and so must every mapped variable's column.
 */
export function spreadsheetMappingProblems(header: readonly string[], mapping: SpreadsheetMapping): string[] {
  const columns = new Set(header);
  const problems: string[] = [];
  const recipient = mapping.recipientColumn.trim();
  if (recipient === '') problems.push(messages.spreadsheets.recipientColumnRequired);
  else if (!columns.has(mapping.recipientColumn)) problems.push(fillMessage(messages.sending.recipientColumnMissing, { column: mapping.recipientColumn }));
  for (const [variable, column] of mappedVariables(mapping)) {
    if (!columns.has(column)) problems.push(fillMessage(messages.spreadsheets.mappedColumnMissing, { column, name: variable }));
  }
  return problems;
}

export interface SpreadsheetCheckResult {
  validRows: number;
  invalidRows: number;
  /** Rows repeating an earlier row in number and every mapped value: not sent, listed among `invalidSample`. */
  duplicatesRemoved: number;
  /** The first rows not sent, invalid or repeats, with why (at most INVALID_SAMPLE_MAX). */
  invalidSample: InvalidSpreadsheetRow[];
}

export interface SpreadsheetCheckOptions {
  /** Called with every row not sent (invalid or a repeat), in order (for the rows-not-sent CSV). */
  onInvalid?: (row: InvalidSpreadsheetRow) => void;
}

export interface SpreadsheetCheck {
  /** The normalised file's columns: the recipient column, then each mapped column once. */
  readonly outputColumns: readonly string[];
  /** The normalised file's header line (CSV, CRLF-terminated). */
  readonly headerLine: string;
  /**
   * Checks one data row (cells by position in the header, or keyed by column name) at its line in
   * the file as the user sees it. Answers the normalised CSV line to write, or null when the row is
   * empty, invalid or repeats an earlier row's number and values (both reported through `onInvalid`).
   */
  addRow(cells: Readonly<Record<string, string>> | readonly string[], line: number): string | null;
  result(): SpreadsheetCheckResult;
}

/** Throws an Error with the first mapping problem (catalogue text) when the mapping does not fit. */
export function createSpreadsheetCheck(header: readonly string[], mapping: SpreadsheetMapping, options: SpreadsheetCheckOptions = {}): SpreadsheetCheck {
  const names = spreadsheetColumnNames(header);
  const problems = spreadsheetMappingProblems(names, mapping);
  if (problems.length > 0) throw new Error(problems[0]);
  const variables = mappedVariables(mapping);
  const outputColumns = [mapping.recipientColumn];
  for (const [, column] of variables) if (!outputColumns.includes(column)) outputColumns.push(column);
  const positions = outputColumns.map((column) => names.indexOf(column));
  const variablePositions = variables.map(([variable, column]) => ({ variable, column, position: names.indexOf(column) }));

  // A row repeats only when its number and every mapped value do (shared/repeatRows.ts).
  const seen = new RepeatIndex();
  const rowValues: string[] = variablePositions.map(() => '');
  const rule = mapping.parameterRule;
  const keyedValues: Record<string, string> = {};
  const invalidSample: InvalidSpreadsheetRow[] = [];
  let validRows = 0;
  let invalidRows = 0;
  let duplicatesRemoved = 0;

  /** A row not sent, listed (and given to `onInvalid`) with why. */
  const notSent = (row: InvalidSpreadsheetRow) => {
    if (invalidSample.length < INVALID_SAMPLE_MAX) invalidSample.push(row);
    options.onInvalid?.(row);
    return null;
  };
  const invalid = (row: InvalidSpreadsheetRow) => {
    invalidRows += 1;
    return notSent(row);
  };

  return {
    outputColumns,
    headerLine: dataCsvLine(outputColumns),
    addRow(cells, line) {
      const cell: (position: number, column: string) => string = Array.isArray(cells)
        ? (position) => ((cells as readonly string[])[position] ?? '').trim()
        : (_position, column) => (Object.hasOwn(cells, column) ? ((cells as Readonly<Record<string, string>>)[column] ?? '') : '').trim();
      if (isEmptyRow(cells)) return null;
      const raw = cell(positions[0] ?? -1, mapping.recipientColumn);
      const phone = checkPhone(raw);
      if (!phone.ok) return invalid({ line, value: raw, reason: messages.phone.invalid[phone.reason] });
      // WhatsApp refuses an empty parameter, so the server would skip the row: say so now, and
      // leave the number free for a later complete row.
      for (let i = 0; i < variablePositions.length; i += 1) {
        const { variable, column, position } = variablePositions[i] as (typeof variablePositions)[number];
        const value = cell(position, column);
        if (value === '') return invalid({ line, value: raw, reason: fillMessage(messages.sending.skipped.missing_value, { name: variable, column }) });
        rowValues[i] = value;
        keyedValues[variable] = value;
      }
      // A value WhatsApp would refuse is not sent nor charged at acceptance: the same words here.
      const problem = rule ? parameterProblem(rule, keyedValues) : null;
      if (problem) {
        const column = variablePositions.find(({ variable }) => variable === problem.key)?.column ?? '';
        return invalid({ line, value: raw, reason: fillMessage(messages.sending.skipped.invalid_value, { why: parameterProblemText(problem), column }) });
      }
      const first = seen.repeatOf(phone.phone, valuesDigest(rowValues), line);
      if (first !== null) {
        duplicatesRemoved += 1;
        return notSent({ line, value: raw, reason: fillMessage(messages.sending.skipped.duplicate_in_list, { row: first }) });
      }
      validRows += 1;
      const out = outputColumns.map((column, i) => (i === 0 ? phone.phone : cell(positions[i] ?? -1, column)));
      return dataCsvLine(out);
    },
    result: () => ({ validRows, invalidRows, duplicatesRemoved, invalidSample: [...invalidSample] }),
  };
}

function isEmptyRow(cells: Readonly<Record<string, string>> | readonly string[]): boolean {
  const values = Array.isArray(cells) ? (cells as readonly string[]) : Object.values(cells);
  for (const value of values) if (value !== undefined && value.trim() !== '') return false;
  return true;
}

// ---------------------------------------------------------------------------------------------
// Column statistics

/**
 * Whether a cell reads as a phone number under the shared rules (shared/phone.ts). Column
 * statistics ask this of every cell of a million-row file, so the common cases are decided here
 * without the rule's regular expressions: plain digits (a number cell) and anything holding a
 * letter. Everything else goes to the rule itself.
 */
export function isPhoneLike(value: string): boolean {
  const length = value.length;
  if (length < 8 || length > 24) return false;
  let digitsOnly = true;
  for (let i = 0; i < length; i += 1) {
    const code = value.charCodeAt(i);
    if (code >= 48 && code <= 57) continue;
    digitsOnly = false;
    // Letters (ASCII or beyond Latin-1 punctuation) are never part of a number.
    if ((code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 64) return false;
  }
  if (digitsOnly) {
    const first = value.charCodeAt(0);
    // A bare Indian mobile, or 8 to 15 digits not starting with 0; other digit strings need the rule.
    if (length === 10 && first >= 54) return true;
    if (first !== 48 && length <= 15) return true;
  }
  // Values the rule must judge repeat down a column (dates, codes): each is judged once.
  const known = phoneLikeMemo.get(value);
  if (known !== undefined) return known;
  const judged = checkPhone(value).ok;
  if (phoneLikeMemo.size >= PHONE_LIKE_MEMO_MAX) phoneLikeMemo.clear();
  phoneLikeMemo.set(value, judged);
  return judged;
}

const PHONE_LIKE_MEMO_MAX = 4_096;
const phoneLikeMemo = new Map<string, boolean>();

export interface ColumnStatsAccumulator {
  /**
   * Adds one data row (cells by position, already trimmed); columns past the known ones are named
   * as the server names them.
   */
  add(cells: readonly string[]): void;
  result(): SpreadsheetColumnStats[];
}

interface ColumnCounts {
  filled: number;
  distinct: Set<string>;
  distinctCapped: boolean;
  phoneLike: number;
}

export function createColumnStats(header: readonly string[], distinctMax = DISTINCT_VALUES_MAX): ColumnStatsAccumulator {
  const counts: ColumnCounts[] = [];
  let rows = 0;
  const column = (i: number): ColumnCounts => {
    while (counts.length <= i) counts.push({ filled: 0, distinct: new Set(), distinctCapped: false, phoneLike: 0 });
    return counts[i] as ColumnCounts;
  };
  for (let i = 0; i < header.length; i += 1) column(i);
  return {
    add(cells) {
      rows += 1;
      for (let i = 0; i < cells.length; i += 1) {
        const value = cells[i] ?? '';
        if (value === '') continue;
        const stats = column(i);
        stats.filled += 1;
        if (!stats.distinctCapped) {
          stats.distinct.add(value);
          if (stats.distinct.size >= distinctMax) stats.distinctCapped = true;
        }
        if (isPhoneLike(value)) stats.phoneLike += 1;
      }
    },
    result() {
      const names = spreadsheetColumnNames(header, Math.max(header.length, counts.length));
      return names.map((name, i) => {
        const stats = column(i);
        return { name, filled: stats.filled, empty: rows - stats.filled, distinct: stats.distinct.size, distinctCapped: stats.distinctCapped, phoneLike: stats.phoneLike };
      });
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Suggested mapping

/** A template variable as the mapping step knows it: its key in `variableMappings`, its name and example. */
export interface MappingVariable {
  key: string;
  name?: string;
  example?: string;
}

const RECIPIENT_HEADER = /^(phone|mobile|number|whatsapp|msisdn|cell)/;

/** Header text compared loosely: case, spaces and punctuation do not matter. */
function comparable(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

/**
 * The mapping the screens start from: the recipient is the column headed like a phone number
 * (phone, mobile, number, WhatsApp...) or, failing that, the one with the most phone-like values;
 * each variable takes the column whose header matches its name or its example. A variable with no
 * such column is left out (the user chooses it).
 */
export function suggestMapping(
  header: readonly string[],
  sample: readonly Readonly<Record<string, string>>[],
  variables: readonly MappingVariable[],
  columns?: readonly SpreadsheetColumnStats[],
): SpreadsheetMapping {
  const names = spreadsheetColumnNames(header);
  const phoneLike = (name: string) =>
    columns?.find((stats) => stats.name === name)?.phoneLike ?? sample.filter((row) => isPhoneLike((Object.hasOwn(row, name) ? row[name] : '') ?? '')).length;
  let recipientColumn = '';
  let best = 0;
  for (const name of names) {
    const count = phoneLike(name);
    if (count > best) {
      best = count;
      recipientColumn = name;
    }
  }
  const byHeader = names.find((name) => RECIPIENT_HEADER.test(comparable(name)));
  if (byHeader !== undefined && (recipientColumn === '' || phoneLike(byHeader) > 0 || sample.length === 0)) recipientColumn = byHeader;
  if (recipientColumn === '' && byHeader !== undefined) recipientColumn = byHeader;

  const variableMappings: Record<string, string> = {};
  const used = new Set<string>();
  for (const variable of variables) {
    const wanted = [variable.name ?? variable.key, variable.key, variable.example ?? ''].map(comparable).filter((text) => text !== '');
    const match = names.find((name) => !used.has(name) && name !== recipientColumn && wanted.includes(comparable(name)));
    if (match !== undefined) {
      variableMappings[variable.key] = match;
      used.add(match);
    }
  }
  return { recipientColumn, variableMappings };
}
