/**
 * Duplicate Blocked keys: the first 8 bytes of the SHA-256 of a message's user, template,
 * recipient and values (canonical JSON of the values in sorted key order), stored as 16 hex
 * digits. The stored format must not change: keys of rows accepted earlier block identical sends.
 *
 * The caches that make a million keys cheap (each sheet shape's sorted keys, the last values
 * object canonicalised) belong to one `DedupeKeyMaker`, made per send: no module holds state.
 */
import { hash } from 'node:crypto';

interface CanonicalShape {
  /** The keys in sorted order. */
  sorted: string[];
  /** What precedes each key's value in the canonical text: `[["a",` then `],["b",` and so on. */
  prefixes: string[];
}

/** Shapes remembered at most; a send with more (rows of many shapes) starts over. */
const SHAPES_KEPT = 1_000;

/** Makes one send's keys, remembering what its rows share. */
export class DedupeKeyMaker {
  /** Each shape's sorted keys and their encoded prefixes, by the keys' own order joined: rows of one sheet share one shape. */
  private readonly shapes = new Map<string, CanonicalShape>();
  /** Quick sends share one values object across every recipient: the last one canonicalised is remembered. */
  private lastVariables: Record<string, string> | null = null;
  private lastCanonical = '';

  constructor(
    private readonly userId: number,
    private readonly templateId: number,
  ) {}

  /**
   * The SHA-256 of the key's definition as hex. `crypto.hash` with a text output is the one-shot
   * form: several times faster for a million keys than a Hash object and a Buffer digest per row
   * (the acceptance figure of docs/performance.md).
   */
  digestHex(recipient: string, variables: Record<string, string>): string {
    if (variables !== this.lastVariables) {
      this.lastCanonical = this.canonicalVariables(variables);
      this.lastVariables = variables;
    }
    return hash('sha256', `${this.userId}|${this.templateId}|${recipient}|${this.lastCanonical}`, 'hex');
  }

  /**
   * `JSON.stringify` of the `[key, value]` pairs in sorted key order (the stored key's format), built
   * without an array of pairs per row: a million-row send canonicalises a million values objects, so
   * only the values are encoded per row.
   */
  private canonicalVariables(variables: Record<string, string>): string {
    const own = Object.keys(variables);
    if (own.length === 0) return '[]';
    const shapeKey = own.join('\u0000');
    let shape = this.shapes.get(shapeKey);
    if (shape === undefined) {
      const sorted = own.sort();
      shape = { sorted, prefixes: sorted.map((key, i) => `${i === 0 ? '[[' : '],['}${JSON.stringify(key)},`) };
      if (this.shapes.size >= SHAPES_KEPT) this.shapes.clear();
      this.shapes.set(shapeKey, shape);
    }
    let text = '';
    for (let i = 0; i < shape.sorted.length; i++) {
      const value = variables[shape.sorted[i] as string];
      // An undefined value is null inside an array, as JSON.stringify writes it.
      text += (shape.prefixes[i] as string) + (value === undefined ? 'null' : JSON.stringify(value));
    }
    return `${text}]]`;
  }
}

/** One message's Duplicate Blocked key, as stored. */
export function dedupeKey(userId: number, templateId: number, recipient: string, variables: Record<string, string>): string {
  return new DedupeKeyMaker(userId, templateId).digestHex(recipient, variables).slice(0, 16);
}

/**
 * A key's first 30 bits, from its first four bytes: a small integer, which a Set holds without a
 * heap object each (a third less memory than 48 bits for a million earlier keys), and which a
 * million earlier keys share with a new key about once in a thousand.
 */
function keyPrefix(firstFourBytes: number): number {
  return firstFourBytes >>> 2;
}

/** Stored Duplicate Blocked keys (hex) and their prefixes (`keyPrefix`), for `DedupeKeys.isIn`. */
export class KeySet {
  readonly keys = new Set<string>();
  readonly prefixes = new Set<number>();

  get size(): number {
    return this.keys.size;
  }

  add(key: string): void {
    this.keys.add(key);
    this.prefixes.add(keyPrefix(Number.parseInt(key.slice(0, 8), 16)));
  }
}

/**
 * A send's (or a chunk's) Duplicate Blocked keys as their 8 bytes each in one buffer (8 MB for a
 * million recipients, where a million 16-character strings and their array took several times
 * that); a key is written out as the stored hex only where a statement needs it.
 */
export class DedupeKeys {
  private readonly bytes: Buffer;

  constructor(readonly length: number) {
    this.bytes = Buffer.allocUnsafe(length * 8);
  }

  /** Every recipient's key, made by one maker (the send's). */
  static of(maker: DedupeKeyMaker, recipients: readonly { to: string; variables: Record<string, string> }[]): DedupeKeys {
    const keys = new DedupeKeys(recipients.length);
    for (let i = 0; i < recipients.length; i++) {
      const recipient = recipients[i] as { to: string; variables: Record<string, string> };
      keys.bytes.write(maker.digestHex(recipient.to, recipient.variables), i * 8, 8, 'hex');
    }
    return keys;
  }

  at(index: number): string {
    return this.bytes.toString('hex', index * 8, index * 8 + 8);
  }

  /**
   * Whether the key at `index` is one of `set`'s, written out as text only where its prefix is one
   * of theirs: a million-row send checked against an earlier campaign's keys otherwise makes a
   * million short-lived strings.
   */
  isIn(index: number, set: KeySet): boolean {
    return set.prefixes.has(keyPrefix(this.bytes.readUInt32BE(index * 8))) && set.keys.has(this.at(index));
  }

  slice(start: number, end: number): string[] {
    const keys: string[] = [];
    for (let i = start; i < Math.min(end, this.length); i++) keys.push(this.at(i));
    return keys;
  }
}
