import { formatIndianNumber } from '@shared/money';

/** Credit history codes containing ADD are credits; every other code is a debit (spec 000 §3). */
export function isCreditType(type: string): boolean {
  return type.toUpperCase().includes('ADD');
}

/**
 * Signed, 2 decimals: "+100.00", "-0.80". The sign follows the type code, so an entry shows
 * correctly whether the server sends debits as negative or as absolute amounts.
 */
export function formatCreditAmount(type: string, amount: number): string {
  const sign = isCreditType(type) ? '+' : '-';
  return `${sign}${Math.abs(amount).toFixed(2)}`;
}

/** "CREDIT_ADD" -> "Credit Add". */
export function formatCreditType(type: string): string {
  return type
    .replace(/_/g, ' ')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\b\w/g, (letter) => letter.toUpperCase());
}

/** The Credits badge and balances: Indian grouping, no decimals when whole. */
export function formatCredits(balance: number | null | undefined): string {
  const value = typeof balance === 'number' && Number.isFinite(balance) ? balance : 0;
  return formatIndianNumber(value, Number.isInteger(value) ? 0 : 2);
}

/**
 * Phones are stored as digits with the country code and no plus (e.g. 919876543210). The spec's
 * "+91 prefix for a number without a plus" was written for bare 10-digit Indian numbers, so
 * only those get +91; a number that already carries its country code just gets its plus.
 */
export function formatPhoneForDisplay(phone: string | null | undefined): string | null {
  const value = phone?.trim();
  if (!value) return null;
  if (value.startsWith('+')) return value;
  const digits = value.replace(/\D/g, '');
  if (digits.length === 10) return `+91 ${digits}`;
  return `+${digits}`;
}
