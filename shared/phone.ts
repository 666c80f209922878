/**
 * Recipient phone numbers (DECISIONS.md "Sending"): stored as digits with the country code and
 * no plus (E.164 without '+'). Isomorphic: the renderer counts numbers as the user types with the
 * same rules the server applies when it accepts a send, so the two counts always agree.
 */

export const PHONE_MIN_DIGITS = 8;
export const PHONE_MAX_DIGITS = 15;

/**
 * Separators people type or paste inside a number: whitespace (\s covers no-break and other
 * Unicode spaces that spreadsheets and web pages paste), ASCII and Unicode dashes, parentheses
 * and dots.
 */
const SEPARATORS = /[\s\-\u2010-\u2015\u2212().]/g;
const DIGITS = new RegExp(`^\\d{${PHONE_MIN_DIGITS},${PHONE_MAX_DIGITS}}$`);

/**
 * The stored form of one number, or null when it is not 8 to 15 digits once separators and one
 * leading '+' are removed. A '00' international prefix is kept as typed: guessing that it stands
 * for '+' would silently change a number that may be a valid national one.
 */
export function normalisePhone(raw: string): string | null {
  let text = raw.replace(SEPARATORS, '');
  if (text.startsWith('+')) text = text.slice(1);
  return DIGITS.test(text) ? text : null;
}

export interface RecipientList {
  /** Normalised numbers, first occurrence order, each once. */
  valid: string[];
  /** Entries (trimmed, as typed) that are not numbers; each occurrence is listed. */
  invalid: string[];
  /** Entries whose normalised number was already in `valid`. */
  duplicates: number;
}

/** Splits on commas and line breaks only (the spec's rule): other punctuation makes an entry invalid. */
const ENTRY_SEPARATOR = /\r\n|\r|\n|,/;

export function parseRecipientList(text: string): RecipientList {
  const seen = new Set<string>();
  const result: RecipientList = { valid: [], invalid: [], duplicates: 0 };
  for (const part of text.split(ENTRY_SEPARATOR)) {
    const entry = part.trim();
    if (entry === '') continue;
    const phone = normalisePhone(entry);
    if (phone === null) result.invalid.push(entry);
    else if (seen.has(phone)) result.duplicates += 1;
    else {
      seen.add(phone);
      result.valid.push(phone);
    }
  }
  return result;
}
