/**
 * What an assembled upload is, by its first bytes rather than its name: a gzip stream
 * (1F 8B) holding CSV text, a zip (an .xlsx), an OLE container (a legacy .xls workbook), or plain
 * CSV text. An OLE container named .xlsx is an encrypted workbook, refused with the send screens' words.
 */
import { constants as zlibConstants, gunzipSync } from 'node:zlib';
import { messages } from '@shared/messages';
import { ValidationError } from '../errors';

export type UploadFileKind = { kind: 'csv'; gzip: boolean } | { kind: 'xlsx' | 'xls'; gzip: false };

/** Bytes of the file read to decide; also the most of a gzip stream inflated to look inside. */
export const SNIFF_BYTES = 4096;

const GZIP = Buffer.from([0x1f, 0x8b]);
const ZIP = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const OLE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

const fail = (message: string) => ValidationError('file', message);

function startsWith(head: Buffer, signature: Buffer): boolean {
  return head.length >= signature.length && head.subarray(0, signature.length).equals(signature);
}

/** Text as the spreadsheet reader takes it: a UTF-16 byte-order mark, or no NUL byte at all. */
function isText(head: Buffer): boolean {
  const utf16 = (head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff);
  return utf16 || head.indexOf(0) === -1;
}

/** An HTML page or table saved under a spreadsheet's name. */
function isHtml(head: Buffer): boolean {
  const text = head.subarray(0, 1024).toString('latin1').trimStart().toLowerCase();
  return text.startsWith('<') && /<(html|table|!doctype|\?xml)/.test(text);
}

/** The start of a gzip stream inflated as far as the given bytes go (a cut stream is not an error). */
export function inflatedHead(compressedHead: Buffer): Buffer | null {
  try {
    return gunzipSync(compressedHead, { finishFlush: zlibConstants.Z_SYNC_FLUSH });
  } catch {
    return null;
  }
}

/**
 * The kind of file from its first bytes (`SNIFF_BYTES` of them). The file name only tells an OLE
 * container named .xlsx (an encrypted workbook, refused) from a legacy .xls (read).
 */
export function detectUploadKind(head: Buffer, filename: string): UploadFileKind {
  if (startsWith(head, GZIP)) {
    const inner = inflatedHead(head);
    if (!inner || inner.length === 0 || startsWith(inner, ZIP) || startsWith(inner, OLE) || !isText(inner) || isHtml(inner)) {
      throw fail(messages.uploads.notSpreadsheet);
    }
    return { kind: 'csv', gzip: true };
  }
  if (startsWith(head, ZIP)) return { kind: 'xlsx', gzip: false };
  if (startsWith(head, OLE)) {
    if (/\.xlsx$/i.test(filename)) throw fail(messages.sending.encryptedWorkbook);
    return { kind: 'xls', gzip: false };
  }
  if (head.length > 0 && isText(head) && !isHtml(head)) return { kind: 'csv', gzip: false };
  throw fail(messages.uploads.notSpreadsheet);
}
