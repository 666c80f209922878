/**
 * GSTIN, India's 15-character GST identification number: 2-digit state code, the holder's PAN
 * (5 letters, 4 digits, 1 letter), an entity number, the letter Z, and a check character
 * computed over the first 14 (the GSTN's published mod-36 scheme). Checking the character
 * catches a mistyped number before it is printed on a receipt.
 */
import { isGstStateCode } from './gst';

const GSTIN_SHAPE = /^[0-9]{2}[A-Z]{5}[0-9]{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/;
const CODE_POINTS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** The check character the first 14 characters call for. */
export function gstinCheckCharacter(first14: string): string {
  let sum = 0;
  for (let index = 0; index < 14; index += 1) {
    const value = CODE_POINTS.indexOf(first14[index] ?? '');
    const product = value * (index % 2 === 0 ? 1 : 2);
    sum += Math.floor(product / 36) + (product % 36);
  }
  return CODE_POINTS[(36 - (sum % 36)) % 36]!;
}

/** Upper-cases and drops spaces, as people type it ("27aapfu 0939f1zv"). */
export function normaliseGstin(text: string): string {
  return text.replace(/\s+/g, '').toUpperCase();
}

/** Whether a normalised GSTIN has the right shape, a state code that exists and the right check character. */
export function isValidGstin(gstin: string): boolean {
  return GSTIN_SHAPE.test(gstin) && isGstStateCode(gstin.slice(0, 2)) && gstinCheckCharacter(gstin.slice(0, 14)) === gstin[14];
}

/** The state code of a valid GSTIN: its first two digits. */
export function gstinStateCode(gstin: string): string {
  return gstin.slice(0, 2);
}
