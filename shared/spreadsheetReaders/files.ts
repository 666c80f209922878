/**
 * What a spreadsheet file is and how to open it, environment-free so the desktop's
 * parse worker and the browser's Web Worker decide alike: the kind by the first bytes (as the
 * server's fileKind.ts decides an upload's), the text encoding of a CSV, and the zip's central
 * directory of an .xlsx, read from the end of the file with guards against zip bombs.
 */

/**
 * The largest .xls the local readers (desktop and web) read. BIFF cannot be streamed, so SheetJS
 * (legacyXls.ts) holds the whole file and its cells at once, several times the file's size; a
 * full BIFF8 sheet of short cells is far smaller than this. Kept here, not beside the reader, so
 * checking it does not load SheetJS.
 */
export const LEGACY_XLS_MAX_BYTES = 64 * 1024 * 1024;

export type SpreadsheetFileKind = 'csv' | 'csv-gzip' | 'xlsx' | 'legacy-xls' | 'unknown';

function startsWith(head: Uint8Array, signature: readonly number[]): boolean {
  if (head.length < signature.length) return false;
  return signature.every((byte, i) => head[i] === byte);
}

const GZIP = [0x1f, 0x8b];
const ZIP = [0x50, 0x4b, 0x03, 0x04];
const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

function hasUtf16Bom(head: Uint8Array): boolean {
  return (head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff);
}

/** An HTML page or table saved under a spreadsheet's name. */
function looksLikeHtml(head: Uint8Array): boolean {
  let text = '';
  for (let i = 0; i < Math.min(head.length, 1024); i += 1) text += String.fromCharCode(head[i] ?? 0);
  const start = text.trimStart().toLowerCase();
  return start.startsWith('<') && /<(html|table|!doctype|\?xml)/.test(start);
}

/**
 * The kind of a file from its first bytes (a few KB): gzip is taken as a compressed CSV (the
 * reader refuses it if the inflated text is not text), a zip as an .xlsx, an OLE container as a
 * legacy (or password-protected) workbook, text without NUL bytes as CSV.
 */
export function sniffSpreadsheetKind(head: Uint8Array): SpreadsheetFileKind {
  if (startsWith(head, GZIP)) return 'csv-gzip';
  if (startsWith(head, ZIP)) return 'xlsx';
  if (startsWith(head, OLE)) return 'legacy-xls';
  if (head.length === 0 || looksLikeHtml(head)) return 'unknown';
  if (hasUtf16Bom(head) || !head.includes(0)) return 'csv';
  return 'unknown';
}

/** Whether inflated gzip content can be a CSV (not a zip, an OLE file, HTML or binary). */
export function isCsvText(head: Uint8Array): boolean {
  return sniffSpreadsheetKind(head) === 'csv';
}

export type CsvEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

/**
 * A CSV's encoding from its start (the first megabyte or so): a UTF-16 byte-order mark, else
 * UTF-8 when that start is valid UTF-8, else windows-1252 (Excel's "CSV (Comma delimited)" in the
 * markets this product serves). The server decides on the whole file; a file valid UTF-8 at its
 * start and not later is read as UTF-8 here, its bad bytes shown as U+FFFD.
 */
export function csvEncoding(head: Uint8Array): CsvEncoding {
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  try {
    // stream: a multi-byte character cut at the end of the head is not an error.
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    return 'utf-8';
  } catch {
    return 'windows-1252';
  }
}

/** windows-1252's 0x80-0x9F; the rest of the byte range is Latin-1. */
const CP1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

/** A text decoder for the encoding, fed chunk by chunk (`final` flushes what a cut character left). */
export function createTextDecoder(encoding: CsvEncoding): (bytes: Uint8Array, final?: boolean) => string {
  if (encoding !== 'windows-1252') {
    const decoder = new TextDecoder(encoding);
    return (bytes, final = false) => decoder.decode(bytes, { stream: !final });
  }
  return (bytes) => {
    let text = '';
    const step = 8192;
    for (let at = 0; at < bytes.length; at += step) {
      const part = bytes.subarray(at, at + step);
      const codes: number[] = new Array<number>(part.length);
      for (let i = 0; i < part.length; i += 1) {
        const byte = part[i] ?? 0;
        codes[i] = byte >= 0x80 && byte <= 0x9f ? CP1252_HIGH.charCodeAt(byte - 0x80) : byte;
      }
      text += String.fromCharCode(...codes);
    }
    return text;
  };
}

// ---------------------------------------------------------------------------------------------
// Zip central directory

export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflate. */
  method: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
}

/** How much a local workbook may unpack to; past these the file is refused (not read). */
export interface LocalZipLimits {
  /** Any one entry, uncompressed (the worksheet of 1M x 8 is some 400 MB). */
  maxEntryBytes: number;
  /** The parts held in memory whole: shared strings, styles, workbook, relations. */
  maxHeldPartBytes: number;
  /** Uncompressed / compressed for one entry, once it is past `ratioFloorBytes`. */
  maxCompressionRatio: number;
  ratioFloorBytes: number;
  maxEntries: number;
}

export const LOCAL_ZIP_LIMITS: LocalZipLimits = {
  maxEntryBytes: 4 * 1024 * 1024 * 1024 - 1,
  maxHeldPartBytes: 256 * 1024 * 1024,
  // The server's guard allows 100; a large worksheet of short repeated cells compresses further.
  maxCompressionRatio: 200,
  ratioFloorBytes: 10 * 1024 * 1024,
  maxEntries: 2_000,
};

/** Why a zip is refused: 'unreadable' (not a zip that can be trusted), 'encrypted' or 'too_large'. */
export class ZipProblem extends Error {
  constructor(
    public readonly reason: 'unreadable' | 'encrypted' | 'too_large',
    detail: string,
  ) {
    super(`${reason}: ${detail}`);
    this.name = 'ZipProblem';
  }
}

const END_RECORD_SIZE = 22;
const CENTRAL_HEADER_SIZE = 46;
export const LOCAL_HEADER_SIZE = 30;
/** The end record sits within this many bytes of the end (its comment is at most 64 KB). */
export const ZIP_TAIL_BYTES = END_RECORD_SIZE + 0xffff;

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Where the central directory is, from the last `ZIP_TAIL_BYTES` (or fewer) bytes of the file. */
export function zipDirectoryLocation(tail: Uint8Array, fileSize: number): { offset: number; size: number; entries: number } {
  const data = view(tail);
  for (let at = tail.length - END_RECORD_SIZE; at >= 0; at -= 1) {
    if (data.getUint32(at, true) !== 0x06054b50) continue;
    const entries = data.getUint16(at + 10, true);
    const size = data.getUint32(at + 12, true);
    const offset = data.getUint32(at + 16, true);
    if (entries === 0xffff || size === 0xffffffff || offset === 0xffffffff) throw new ZipProblem('unreadable', 'zip64');
    if (data.getUint16(at + 4, true) !== 0 || data.getUint16(at + 6, true) !== 0) throw new ZipProblem('unreadable', 'multi-disk archive');
    const endOffset = fileSize - tail.length + at;
    if (offset + size !== endOffset) throw new ZipProblem('unreadable', 'central directory is not where the end record says');
    return { offset, size, entries };
  }
  throw new ZipProblem('unreadable', 'no end of central directory record');
}

/** The entries of a central directory, checked: methods, encryption, sizes, ratios, and offsets inside the file. */
export function parseZipDirectory(directory: Uint8Array, expectedEntries: number, directoryOffset: number, limits: LocalZipLimits = LOCAL_ZIP_LIMITS): ZipEntry[] {
  if (expectedEntries > limits.maxEntries) throw new ZipProblem('too_large', `${expectedEntries} entries`);
  const data = view(directory);
  const entries: ZipEntry[] = [];
  let at = 0;
  for (let i = 0; i < expectedEntries; i += 1) {
    if (at + CENTRAL_HEADER_SIZE > directory.length || data.getUint32(at, true) !== 0x02014b50) throw new ZipProblem('unreadable', `central header ${i}`);
    const flags = data.getUint16(at + 8, true);
    const method = data.getUint16(at + 10, true);
    const compressedSize = data.getUint32(at + 20, true);
    const uncompressedSize = data.getUint32(at + 24, true);
    const nameLength = data.getUint16(at + 28, true);
    const extraLength = data.getUint16(at + 30, true);
    const commentLength = data.getUint16(at + 32, true);
    const localHeaderOffset = data.getUint32(at + 42, true);
    const nameEnd = at + CENTRAL_HEADER_SIZE + nameLength;
    if (nameEnd > directory.length) throw new ZipProblem('unreadable', `central name ${i}`);
    const name = new TextDecoder().decode(directory.subarray(at + CENTRAL_HEADER_SIZE, nameEnd));
    if (compressedSize === 0xffffffff || uncompressedSize === 0xffffffff || localHeaderOffset === 0xffffffff) throw new ZipProblem('unreadable', 'zip64 entry');
    if (flags & 0x1) throw new ZipProblem('encrypted', name);
    if (method !== 0 && method !== 8) throw new ZipProblem('unreadable', `method ${method}`);
    if (method === 0 && compressedSize !== uncompressedSize) throw new ZipProblem('unreadable', `stored entry ${name} changes size`);
    if (uncompressedSize > limits.maxEntryBytes) throw new ZipProblem('too_large', name);
    if (uncompressedSize > limits.ratioFloorBytes && uncompressedSize > limits.maxCompressionRatio * Math.max(1, compressedSize)) {
      throw new ZipProblem('too_large', `compression ratio of ${name}`);
    }
    if (localHeaderOffset + LOCAL_HEADER_SIZE + compressedSize > directoryOffset) throw new ZipProblem('unreadable', `${name} runs into the central directory`);
    entries.push({ name, method, compressedSize, uncompressedSize, localHeaderOffset });
    at = nameEnd + extraLength + commentLength;
  }
  return entries;
}

/** Where an entry's compressed data starts, from its local header (checked against the central one). */
export function zipEntryDataOffset(localHeader: Uint8Array, entry: ZipEntry): number {
  const data = view(localHeader);
  if (localHeader.length < LOCAL_HEADER_SIZE || data.getUint32(0, true) !== 0x04034b50) throw new ZipProblem('unreadable', `local header of ${entry.name}`);
  if (data.getUint16(8, true) !== entry.method) throw new ZipProblem('unreadable', `local method of ${entry.name}`);
  return entry.localHeaderOffset + LOCAL_HEADER_SIZE + data.getUint16(26, true) + data.getUint16(28, true);
}
