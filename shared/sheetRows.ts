/**
 * One rule for turning a spreadsheet row into a message. The server reads its uploads
 * and the personalised send's rows through these, and Customize Message's previews read the same
 * rows through them too, so the message a preview shows is the message that is sent.
 */
import { parameterProblem, type ParameterProblem, type ParameterRule } from './parameterLimits';

/** Digits as written, never in exponent form: phone numbers arrive as numeric cells. */
export function numberText(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Number.isInteger(value)) return Math.abs(value) < 1e21 ? String(value) : BigInt(value).toString();
  const text = String(value);
  if (!text.includes('e')) return text;
  // Tiny fractions: toFixed(20) then drop the trailing zeros.
  return value.toFixed(20).replace(/\.?0+$/, '');
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

/**
 * A date as the person who typed it sees it: `2024-05-06`, or `2024-05-06 09:05` (seconds only
 * when set) when it has a time of day. Spreadsheet readers build dates in UTC from the sheet's
 * wall-clock value, so the UTC fields are the ones the sheet shows; an ISO stamp with `Z` would
 * claim a time zone the sheet never had.
 */
export function dateText(value: Date): string {
  if (Number.isNaN(value.getTime())) return '';
  const day = value.toISOString().slice(0, 10);
  const [hours, minutes, seconds] = [value.getUTCHours(), value.getUTCMinutes(), value.getUTCSeconds()];
  if (hours === 0 && minutes === 0 && seconds === 0) return day;
  return `${day} ${pad(hours)}:${pad(minutes)}${seconds === 0 ? '' : `:${pad(seconds)}`}`;
}

/** A cell's value as message text: trimmed, '' for an empty cell, numbers and dates as written. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number') return numberText(value);
  if (typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value instanceof Date) return dateText(value);
  if (typeof value === 'object') {
    // Only a JSON caller can send a nested value; its JSON is what it wrote.
    try {
      return JSON.stringify(value).trim();
    } catch {
      return '';
    }
  }
  return '';
}

/** A row's own cell (a column named "constructor" or "__proto__" is data, never the prototype's). */
export function rowCell(row: Readonly<Record<string, unknown>>, column: string): unknown {
  return Object.hasOwn(row, column) ? row[column] : undefined;
}

/**
 * A variable mapping as the rules read it: variable names without their braces and spaces
 * (`{{ 1 }}` and `1` are the same variable), and variables mapped to no column left out.
 */
export function normaliseMappings(mappings: Readonly<Record<string, string>>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [variable, column] of Object.entries(mappings)) {
    const name = variable.replace(/^\s*\{\{|\}\}\s*$/g, '').trim();
    if (name !== '' && column !== '') result[name] = column;
  }
  return result;
}

/** The first variable without a column, or null when every one has one (or there are none). */
export function unmappedVariable(variables: readonly string[], mappings: Readonly<Record<string, string>>): string | null {
  return variables.find((variable) => (mappings[variable] ?? '') === '') ?? null;
}

/** What one row becomes: the recipient as written, the variables' values and what stops it. */
export interface RowMessage {
  /** The recipient cell as text (the phone rule judges it). */
  raw: string;
  /** Each mapped variable's value, in the variables' order. */
  values: Record<string, string>;
  /**
   * The first variable that has no column or an empty cell in this row, with its column: WhatsApp
   * refuses empty parameters, so such a row is skipped rather than sent blank.
   */
  missing: { name: string; column: string } | null;
  /**
   * The first value WhatsApp would refuse (too long for its place, a control character: see
   * ./parameterLimits), with its column; such a row is not sent and not charged. Null when every
   * value fits, when a value is missing, or when no rule was given.
   */
  refused: (ParameterProblem & { column: string }) | null;
}

export function rowMessage(
  row: Readonly<Record<string, unknown>>,
  recipientColumn: string,
  variables: readonly string[],
  mappings: Readonly<Record<string, string>>,
  /** The template's parameter limits (parameterRule); without it values are not held to them. */
  rule?: ParameterRule,
): RowMessage {
  const values: Record<string, string> = {};
  let missing: RowMessage['missing'] = null;
  for (const variable of variables) {
    const column = mappings[variable] ?? '';
    const value = column === '' ? '' : cellText(rowCell(row, column));
    if (column !== '') values[variable] = value;
    if (value === '' && !missing) missing = { name: variable, column };
  }
  const problem = rule && !missing ? parameterProblem(rule, values) : null;
  const refused = problem ? { ...problem, column: mappings[problem.key] ?? '' } : null;
  return { raw: cellText(rowCell(row, recipientColumn)), values, missing, refused };
}
