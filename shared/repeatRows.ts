/**
 * Which rows of one send repeat an earlier row: the same number AND every value the same (after
 * the normalisation the send applies). A second order to the same customer (same number, another
 * order id) is its own message; only a row identical in number and values is a repeat.
 *
 * One rule for the server's screening of a send and for the check of a spreadsheet on this
 * computer (shared/spreadsheetCheck.ts), so both set aside the same rows. Environment-free.
 *
 * Sized for a million rows: the index keys its map by the number (the string the send keeps
 * anyway, so no string is made per row) and keeps, per distinct (number, values), only a row
 * number and a 53-bit digest of the values in typed arrays. A digest is only ever compared with
 * the digests of rows of the same number, so two different rows are taken for one only if a
 * number's own few value sets collide in 53 bits.
 */

// The digest's two running halves: module state, so that hashing a row makes no object.
let h1 = 0;
let h2 = 0;

function begin(): void {
  h1 = 0xdeadbeef;
  h2 = 0x41c6ce57;
}

/** Mixes in one text, its length first so that ['ab', 'c'] and ['a', 'bc'] differ. */
function mix(text: string): void {
  h1 = Math.imul(h1 ^ text.length, 2654435761);
  h2 = Math.imul(h2 ^ text.length, 1597334677);
  for (let i = 0; i < text.length; i += 1) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
}

function finish(): number {
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** The 53-bit digest (cyrb53-style mixing) of a row's values, in the order given. */
export function valuesDigest(values: readonly string[]): number {
  begin();
  for (let i = 0; i < values.length; i += 1) mix(values[i] ?? '');
  return finish();
}

/**
 * The digest of a values object: its own keys with their values, in the object's own order (one
 * send builds every row's values in one order; rows built in two orders are kept apart, never merged).
 */
export function valuesRecordDigest(values: Readonly<Record<string, string>>): number {
  begin();
  for (const key in values) {
    if (!Object.hasOwn(values, key)) continue;
    mix(key);
    mix(values[key] ?? '');
  }
  return finish();
}

/** The rows of one send seen so far, by number and values. */
export class RepeatIndex {
  /** Each number's most recent distinct entry (an index into the arrays below). */
  private readonly byPhone = new Map<string, number>();
  private rows = new Float64Array(1_024);
  private digests = new Float64Array(1_024);
  /** The number's previous distinct entry, -1 at its first. */
  private previous = new Int32Array(1_024);
  private size = 0;

  /**
   * The row that `phone` with values of this `digest` repeats, or null when it is new, in which
   * case it is remembered as seen at `row`.
   */
  repeatOf(phone: string, digest: number, row: number): number | null {
    const latest = this.byPhone.get(phone);
    for (let entry = latest ?? -1; entry >= 0; entry = this.previous[entry] as number) {
      if (this.digests[entry] === digest) return this.rows[entry] as number;
    }
    if (this.size === this.rows.length) this.grow();
    const entry = this.size;
    this.size += 1;
    this.rows[entry] = row;
    this.digests[entry] = digest;
    this.previous[entry] = latest ?? -1;
    this.byPhone.set(phone, entry);
    return null;
  }

  private grow(): void {
    const length = this.rows.length * 2;
    const rows = new Float64Array(length);
    rows.set(this.rows);
    const digests = new Float64Array(length);
    digests.set(this.digests);
    const previous = new Int32Array(length);
    previous.set(this.previous);
    this.rows = rows;
    this.digests = digests;
    this.previous = previous;
  }
}
