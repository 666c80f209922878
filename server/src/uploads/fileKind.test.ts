import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { messages } from '@shared/messages';
import { AppError } from '../errors';
import { detectUploadKind, SNIFF_BYTES } from './fileKind';
import { missingParts, partBytes } from './service';

function refusal(head: Buffer, filename = 'file.bin'): string {
  try {
    detectUploadKind(head, filename);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return (error as AppError).message;
  }
  throw new Error('expected a refusal');
}

describe('detectUploadKind', () => {
  it('reads CSV text whatever the name says', () => {
    expect(detectUploadKind(Buffer.from('phone,name\n919800000001,Asha\n'), 'recipients.xlsx')).toEqual({ kind: 'csv', gzip: false });
    expect(detectUploadKind(Buffer.from('\ufeffphone\n', 'utf16le'), 'list')).toEqual({ kind: 'csv', gzip: false });
  });

  it('knows gzip-compressed CSV by its magic bytes, from a cut head of a large stream', () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `91980${String(i * 7919).padStart(7, '0')},Name ${(i * 104_729) % 99_991}`);
    const big = gzipSync(Buffer.from(`phone,name\n${lines.join('\n')}\n`));
    expect(big.length).toBeGreaterThan(SNIFF_BYTES);
    expect(detectUploadKind(big.subarray(0, SNIFF_BYTES), 'recipients.csv')).toEqual({ kind: 'csv', gzip: true });
  });

  it('knows a workbook by its zip signature', () => {
    expect(detectUploadKind(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00]), 'recipients.csv')).toEqual({ kind: 'xlsx', gzip: false });
  });

  it('refuses binaries, HTML, gzip of a binary and an OLE container named .xlsx with catalogue words', () => {
    expect(refusal(Buffer.from([0x00, 0x01, 0x02, 0x03]))).toBe(messages.uploads.notSpreadsheet);
    expect(refusal(Buffer.from('<html><table><tr><td>1</td></tr></table></html>'))).toBe(messages.uploads.notSpreadsheet);
    expect(refusal(gzipSync(Buffer.from([0x00, 0xff, 0x00, 0x10])))).toBe(messages.uploads.notSpreadsheet);
    expect(refusal(Buffer.from([0x1f, 0x8b, 0x00, 0x00]))).toBe(messages.uploads.notSpreadsheet);
    expect(refusal(Buffer.alloc(0))).toBe(messages.uploads.notSpreadsheet);
    const ole = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0x00]);
    expect(refusal(ole, 'book.xlsx')).toBe(messages.sending.encryptedWorkbook);
  });

  it('knows a legacy .xls workbook by its OLE signature', () => {
    const ole = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0x00]);
    expect(detectUploadKind(ole, 'book.xls')).toEqual({ kind: 'xls', gzip: false });
    expect(detectUploadKind(ole, 'book')).toEqual({ kind: 'xls', gzip: false });
  });
});

describe('parts', () => {
  it('gives every part the part size and the last one the remainder', () => {
    expect([1, 2, 3].map((n) => partBytes(2500, 1000, n))).toEqual([1000, 1000, 500]);
    expect([1, 2].map((n) => partBytes(2000, 1000, n))).toEqual([1000, 1000]);
    expect(partBytes(10, 1000, 1)).toBe(10);
  });

  it('lists the parts still missing in order', () => {
    expect(missingParts(5, [4, 1, 2])).toEqual([3, 5]);
    expect(missingParts(2, [1, 2])).toEqual([]);
  });
});
