/**
 * Recipient phone numbers (docs/decisions/2026-11-21-sending-rules.md): stored as digits with the country
 * code and no plus (E.164 without '+'). This is the one rule every path applies (quick send,
 * import, spreadsheets, personalised sends, the API single and batch calls, uploads), and the
 * renderer applies it as the user types, so what the preview shows is what acceptance stores.
 *
 * - a bare 10-digit number starting 6-9 is an Indian mobile: `91` is put in front;
 * - a leading `0` before 10 digits (India's trunk prefix), `+91`, `0091` (or any `00`
 *   international prefix) and a `+91 0` are normalised away;
 * - anything else must be a valid E.164 number of 8 to 15 digits (never starting with 0), or it
 *   is invalid with its reason.
 */

export const PHONE_MIN_DIGITS = 8;
export const PHONE_MAX_DIGITS = 15;
/** India's country code: the product's home market. */
export const INDIA_COUNTRY_CODE = '91';

/**
 * Separators people type or paste inside a number: whitespace (\s covers no-break and other
 * Unicode spaces that spreadsheets and web pages paste), ASCII and Unicode dashes, parentheses
 * and dots.
 */
const SEPARATORS = /[\s\-\u2010-\u2015\u2212().]/g;
const INDIAN_MOBILE = /^[6-9]\d{9}$/;

/** Why a number was refused; the texts are `messages.phone.invalid[reason]`. */
export const PHONE_INVALID_REASONS = [
  'empty',
  'characters',
  'too_short',
  'too_long',
  'leading_zero',
] as const;
export type PhoneInvalidReason = (typeof PHONE_INVALID_REASONS)[number];

export type PhoneCheck =
  | { ok: true; phone: string; /** The stored form differs from the digits as typed (a country code was added or a prefix dropped). */ changed: boolean }
  | { ok: false; reason: PhoneInvalidReason };

/**
 * A number as typed with its separators (spaces, dashes, brackets, dots) and one leading `+`
 * dropped: `+91 98765-43210` is `919876543210`. Nothing else changes, so each caller applies its
 * own rule to what is left (signup's 11 to 15 digits, a recipient's {@link checkPhone}).
 */
export function phoneDigits(raw: string): string {
  return raw.replace(SEPARATORS, '').replace(/^\+/, '');
}

/** The stored form of one number, or why it is not a number. */
export function checkPhone(raw: string): PhoneCheck {
  const plus = raw.replace(SEPARATORS, '').startsWith('+');
  let text = phoneDigits(raw);
  if (text === '') return { ok: false, reason: 'empty' };
  if (!/^\d+$/.test(text)) return { ok: false, reason: 'characters' };
  const typed = text;
  if (!plus) {
    if (INDIAN_MOBILE.test(text)) text = INDIA_COUNTRY_CODE + text;
    else if (text.startsWith('00')) text = text.slice(2);
    else if (/^0\d{10}$/.test(text)) text = INDIA_COUNTRY_CODE + text.slice(1);
  }
  // "+91 0 98765 43210": the trunk 0 written after the country code.
  if (/^910\d{10}$/.test(text)) text = INDIA_COUNTRY_CODE + text.slice(3);
  if (text.startsWith('0')) return { ok: false, reason: 'leading_zero' };
  if (text.length < PHONE_MIN_DIGITS) return { ok: false, reason: 'too_short' };
  if (text.length > PHONE_MAX_DIGITS) return { ok: false, reason: 'too_long' };
  return { ok: true, phone: text, changed: text !== typed };
}

/** The stored form of one number, or null when {@link checkPhone} refuses it. */
export function normalisePhone(raw: string): string | null {
  const result = checkPhone(raw);
  return result.ok ? result.phone : null;
}

/** A stored number as people read it: `+91 98765 43210` for Indian mobiles, else `+` and the digits. */
export function formatPhone(phone: string): string {
  if (/^91\d{10}$/.test(phone)) return `+91 ${phone.slice(2, 7)} ${phone.slice(7)}`;
  return `+${phone}`;
}

export interface RecipientList {
  /** Normalised numbers, first occurrence order, each once. */
  valid: string[];
  /** Entries (trimmed, as typed) that are not numbers; each occurrence is listed. */
  invalid: string[];
  /** Why each entry of `invalid` was refused, in the same order. */
  invalidReasons: PhoneInvalidReason[];
  /** Entries whose normalised number was already in `valid`. */
  duplicates: number;
  /** Valid entries whose stored form differs from what was typed (first few, for the preview). */
  normalised: { typed: string; phone: string }[];
  /** How many valid entries were changed in all (`normalised` keeps the first few). */
  normalisedCount: number;
}

/** How many normalisations a parsed list keeps to show (the preview shows a few examples). */
export const NORMALISED_EXAMPLES_KEPT = 20;

/** Splits on commas and line breaks only (the spec's rule): other punctuation makes an entry invalid. */
const ENTRY_SEPARATOR = /\r\n|\r|\n|,/;

export function parseRecipientList(text: string): RecipientList {
  const seen = new Set<string>();
  const result: RecipientList = { valid: [], invalid: [], invalidReasons: [], duplicates: 0, normalised: [], normalisedCount: 0 };
  for (const part of text.split(ENTRY_SEPARATOR)) {
    const entry = part.trim();
    if (entry === '') continue;
    const checked = checkPhone(entry);
    if (!checked.ok) {
      result.invalid.push(entry);
      result.invalidReasons.push(checked.reason);
    } else if (seen.has(checked.phone)) result.duplicates += 1;
    else {
      seen.add(checked.phone);
      result.valid.push(checked.phone);
      if (checked.changed) {
        result.normalisedCount += 1;
        if (result.normalised.length < NORMALISED_EXAMPLES_KEPT) result.normalised.push({ typed: entry, phone: checked.phone });
      }
    }
  }
  return result;
}
