/**
 * Zip-bomb protection for uploaded .xlsx files, run on the whole (size-capped) upload held in
 * memory before the shared reader reads it (a file on disk is held to its declared total instead,
 * `declaredUncompressedBytes`, and the reader stops each entry at its declared size).
 *
 * Checking the sizes the central directory declares is not enough on its own: a crafted file can
 * declare small sizes and inflate to gigabytes, or hide entries that the central directory does
 * not list. This guard:
 *  1. reads the central directory (entry count, declared sizes, methods, encryption, zip64);
 *  2. checks that the local entries are laid out back to back exactly as the central directory
 *     says, with the same names, so any reader sees exactly the listed entries;
 *  3. inflates every entry into a counter (no buffering) and stops as soon as one produces more
 *     than it declared or the total passes the cap, so a lie costs at most the cap in CPU.
 */
import { createInflateRaw } from 'node:zlib';

export interface ZipLimits {
  /** Sum of the uncompressed sizes of all entries. */
  maxUncompressedBytes: number;
  /** Uncompressed / compressed for the whole archive, applied once past `ratioFloorBytes`. */
  maxCompressionRatio: number;
  /** Below this much uncompressed data the ratio is not checked: small XML parts compress very well. */
  ratioFloorBytes: number;
  maxEntries: number;
}

export const DEFAULT_ZIP_LIMITS: ZipLimits = {
  maxUncompressedBytes: 200 * 1024 * 1024,
  maxCompressionRatio: 100,
  ratioFloorBytes: 10 * 1024 * 1024,
  maxEntries: 2_000,
};

/** Why a zip was refused: `malformed` (not a zip we can trust), `unsupported`, `too_large`. */
export class ZipRefusedError extends Error {
  constructor(
    public readonly reason: 'malformed' | 'unsupported' | 'encrypted' | 'too_large',
    detail: string,
  ) {
    super(`${reason}: ${detail}`);
    this.name = 'ZipRefusedError';
  }
}

export interface ZipEntryInfo {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
  /** Where this entry's local record (header, data, optional descriptor) ends: set by the layout check. */
  recordEnd: number;
}

const SIG_LOCAL = 0x04034b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_END = 0x06054b50;
const SIG_DESCRIPTOR = 0x08074b50;
const END_RECORD_SIZE = 22;
const CENTRAL_HEADER_SIZE = 46;
const LOCAL_HEADER_SIZE = 30;
const MAX_COMMENT = 0xffff;
const FLAG_ENCRYPTED = 0x1;
const FLAG_DESCRIPTOR = 0x8;
const METHOD_STORED = 0;
const METHOD_DEFLATE = 8;

function findEndRecord(zip: Buffer): number {
  const stop = Math.max(0, zip.length - END_RECORD_SIZE - MAX_COMMENT);
  for (let at = zip.length - END_RECORD_SIZE; at >= stop; at -= 1) {
    if (zip.readUInt32LE(at) === SIG_END) return at;
  }
  throw new ZipRefusedError('malformed', 'no end of central directory record');
}

/** Bytes at the end of a zip that hold its end record, whatever its comment. */
export const ZIP_TAIL_BYTES = END_RECORD_SIZE + MAX_COMMENT;

/**
 * The uncompressed total the central directory declares, from the file's last bytes alone (`tail`
 * ends where the file of `fileSize` bytes ends), or null when the directory does not sit within
 * them. Lets a workbook too large once unpacked be refused without reading the whole file; the
 * full check (`assertSafeZip`) still runs on any file that passes.
 */
export function declaredUncompressedBytes(tail: Buffer, fileSize: number): number | null {
  if (tail.length < END_RECORD_SIZE) return null;
  const stop = Math.max(0, tail.length - END_RECORD_SIZE - MAX_COMMENT);
  let end = -1;
  for (let at = tail.length - END_RECORD_SIZE; at >= stop; at -= 1) {
    if (tail.readUInt32LE(at) === SIG_END) {
      end = at;
      break;
    }
  }
  if (end === -1) return null;
  const entryCount = tail.readUInt16LE(end + 10);
  const centralSize = tail.readUInt32LE(end + 12);
  const centralOffset = tail.readUInt32LE(end + 16);
  const tailStart = fileSize - tail.length;
  if (centralOffset < tailStart || centralOffset + centralSize !== tailStart + end) return null;
  let at = centralOffset - tailStart;
  let total = 0;
  for (let i = 0; i < entryCount; i += 1) {
    if (at + CENTRAL_HEADER_SIZE > end || tail.readUInt32LE(at) !== SIG_CENTRAL) return null;
    total += tail.readUInt32LE(at + 24);
    at += CENTRAL_HEADER_SIZE + tail.readUInt16LE(at + 28) + tail.readUInt16LE(at + 30) + tail.readUInt16LE(at + 32);
  }
  return total;
}

/** Reads and checks the central directory. Pure and synchronous; does not inflate anything. */
export function readCentralDirectory(zip: Buffer, limits: ZipLimits = DEFAULT_ZIP_LIMITS): ZipEntryInfo[] {
  if (zip.length < END_RECORD_SIZE) throw new ZipRefusedError('malformed', 'too short');
  const end = findEndRecord(zip);
  const diskNumber = zip.readUInt16LE(end + 4);
  const centralDisk = zip.readUInt16LE(end + 6);
  const entriesOnDisk = zip.readUInt16LE(end + 8);
  const entryCount = zip.readUInt16LE(end + 10);
  const centralSize = zip.readUInt32LE(end + 12);
  const centralOffset = zip.readUInt32LE(end + 16);
  // 0xFFFF / 0xFFFFFFFF mean "see the zip64 record": no spreadsheet under the upload cap needs zip64.
  if (entryCount === 0xffff || centralSize === 0xffffffff || centralOffset === 0xffffffff) {
    throw new ZipRefusedError('unsupported', 'zip64');
  }
  if (diskNumber !== 0 || centralDisk !== 0 || entriesOnDisk !== entryCount) {
    throw new ZipRefusedError('unsupported', 'multi-disk archive');
  }
  if (entryCount > limits.maxEntries) throw new ZipRefusedError('too_large', `${entryCount} entries`);
  if (centralOffset + centralSize !== end) throw new ZipRefusedError('malformed', 'central directory is not where the end record says');

  const entries: ZipEntryInfo[] = [];
  let at = centralOffset;
  let totalUncompressed = 0;
  for (let i = 0; i < entryCount; i += 1) {
    if (at + CENTRAL_HEADER_SIZE > end || zip.readUInt32LE(at) !== SIG_CENTRAL) {
      throw new ZipRefusedError('malformed', `central header ${i}`);
    }
    const flags = zip.readUInt16LE(at + 8);
    const method = zip.readUInt16LE(at + 10);
    const compressedSize = zip.readUInt32LE(at + 20);
    const uncompressedSize = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const localHeaderOffset = zip.readUInt32LE(at + 42);
    const nameEnd = at + CENTRAL_HEADER_SIZE + nameLength;
    if (nameEnd > end) throw new ZipRefusedError('malformed', `central name ${i}`);
    // latin1 keeps the raw bytes one-to-one, so the comparison with the local header is exact.
    const name = zip.toString('latin1', at + CENTRAL_HEADER_SIZE, nameEnd);
    if (compressedSize === 0xffffffff || uncompressedSize === 0xffffffff || localHeaderOffset === 0xffffffff) {
      throw new ZipRefusedError('unsupported', 'zip64 entry');
    }
    if (flags & FLAG_ENCRYPTED) throw new ZipRefusedError('encrypted', name);
    if (method !== METHOD_STORED && method !== METHOD_DEFLATE) throw new ZipRefusedError('unsupported', `method ${method}`);
    if (method === METHOD_STORED && compressedSize !== uncompressedSize) {
      throw new ZipRefusedError('malformed', `stored entry ${name} changes size`);
    }
    totalUncompressed += uncompressedSize;
    if (totalUncompressed > limits.maxUncompressedBytes) {
      throw new ZipRefusedError('too_large', `more than ${limits.maxUncompressedBytes} bytes uncompressed`);
    }
    entries.push({ name, method, flags, compressedSize, uncompressedSize, localHeaderOffset, recordEnd: 0 });
    at = nameEnd + extraLength + commentLength;
  }
  if (at !== end) throw new ZipRefusedError('malformed', 'central directory size mismatch');
  if (totalUncompressed > limits.ratioFloorBytes && totalUncompressed > limits.maxCompressionRatio * Math.max(1, zip.length)) {
    throw new ZipRefusedError('too_large', 'compression ratio');
  }
  checkLocalLayout(zip, entries, centralOffset);
  return entries;
}

/** Start of the compressed data of an entry, after checking its local header against the central one. */
function dataStart(zip: Buffer, entry: ZipEntryInfo): number {
  const at = entry.localHeaderOffset;
  if (at + LOCAL_HEADER_SIZE > zip.length || zip.readUInt32LE(at) !== SIG_LOCAL) {
    throw new ZipRefusedError('malformed', `local header of ${entry.name}`);
  }
  const nameLength = zip.readUInt16LE(at + 26);
  const extraLength = zip.readUInt16LE(at + 28);
  const name = zip.toString('latin1', at + LOCAL_HEADER_SIZE, at + LOCAL_HEADER_SIZE + nameLength);
  if (name !== entry.name) throw new ZipRefusedError('malformed', `local name ${name} differs from ${entry.name}`);
  if (zip.readUInt16LE(at + 8) !== entry.method) throw new ZipRefusedError('malformed', `local method of ${entry.name}`);
  return at + LOCAL_HEADER_SIZE + nameLength + extraLength;
}

/**
 * The streaming parser walks local headers from byte 0 to the central directory. Requiring the
 * listed entries to tile that range exactly (allowing for an optional data descriptor after each)
 * means nothing unlisted can hide between them.
 */
function checkLocalLayout(zip: Buffer, entries: ZipEntryInfo[], centralOffset: number): void {
  const sorted = [...entries].sort((a, b) => a.localHeaderOffset - b.localHeaderOffset);
  let expected = 0;
  for (const entry of sorted) {
    if (entry.localHeaderOffset !== expected) throw new ZipRefusedError('malformed', `gap or overlap before ${entry.name}`);
    let next = dataStart(zip, entry) + entry.compressedSize;
    if (next > centralOffset) throw new ZipRefusedError('malformed', `${entry.name} runs into the central directory`);
    if (entry.flags & FLAG_DESCRIPTOR) {
      // crc, compressed size, uncompressed size, optionally preceded by a signature.
      const signed = next + 4 <= centralOffset && zip.readUInt32LE(next) === SIG_DESCRIPTOR;
      const size = signed ? 16 : 12;
      if (next + size > centralOffset) throw new ZipRefusedError('malformed', `descriptor of ${entry.name}`);
      const base = signed ? next + 4 : next;
      if (zip.readUInt32LE(base + 4) !== entry.compressedSize || zip.readUInt32LE(base + 8) !== entry.uncompressedSize) {
        throw new ZipRefusedError('malformed', `descriptor sizes of ${entry.name}`);
      }
      next += size;
    }
    entry.recordEnd = next;
    expected = next;
  }
  if (expected !== centralOffset) throw new ZipRefusedError('malformed', 'data after the last entry');
}

/** Inflates into a counter; rejects as soon as the output passes `limit` bytes. */
function inflatedSize(data: Buffer, limit: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const inflate = createInflateRaw();
    let total = 0;
    let settled = false;
    const finish = (error: Error | null) => {
      if (settled) return;
      settled = true;
      if (error) reject(error);
      else resolve(total);
    };
    inflate.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > limit) {
        finish(new ZipRefusedError('too_large', 'entry inflates past its declared size'));
        inflate.destroy();
      }
    });
    inflate.on('error', () => finish(new ZipRefusedError('malformed', 'corrupt deflate data')));
    inflate.on('end', () => finish(null));
    inflate.end(data);
  });
}

/**
 * Full check: the central directory, the layout and the real inflated sizes. Resolves with the
 * entries when the archive is safe to hand to a streaming parser.
 */
export async function assertSafeZip(zip: Buffer, limits: ZipLimits = DEFAULT_ZIP_LIMITS): Promise<ZipEntryInfo[]> {
  const entries = readCentralDirectory(zip, limits);
  let budget = limits.maxUncompressedBytes;
  for (const entry of entries) {
    if (entry.method !== METHOD_DEFLATE) continue;
    const start = dataStart(zip, entry);
    const actual = await inflatedSize(zip.subarray(start, start + entry.compressedSize), Math.min(entry.uncompressedSize, budget));
    if (actual !== entry.uncompressedSize) throw new ZipRefusedError('malformed', `${entry.name} size differs from its header`);
    budget -= actual;
  }
  return entries;
}
