import { describe, expect, it } from 'vitest';
import { createTextDecoder, csvEncoding, parseZipDirectory, sniffSpreadsheetKind, zipDirectoryLocation, ZipProblem } from './files';

const bytes = (...values: number[]) => new Uint8Array(values);
const text = (value: string) => new TextEncoder().encode(value);

describe('sniffSpreadsheetKind', () => {
  it('tells the kind from the first bytes', () => {
    expect(sniffSpreadsheetKind(bytes(0x1f, 0x8b, 8))).toBe('csv-gzip');
    expect(sniffSpreadsheetKind(bytes(0x50, 0x4b, 3, 4, 0))).toBe('xlsx');
    expect(sniffSpreadsheetKind(bytes(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1))).toBe('legacy-xls');
    expect(sniffSpreadsheetKind(text('Phone,Name\n'))).toBe('csv');
    expect(sniffSpreadsheetKind(bytes(0xff, 0xfe, 0x50, 0))).toBe('csv');
    expect(sniffSpreadsheetKind(text('<!DOCTYPE html><table>'))).toBe('unknown');
    expect(sniffSpreadsheetKind(bytes(1, 0, 2))).toBe('unknown');
    expect(sniffSpreadsheetKind(bytes())).toBe('unknown');
  });
});

describe('csvEncoding and createTextDecoder', () => {
  it('reads UTF-8, UTF-16 by its mark, and windows-1252 when the start is not UTF-8', () => {
    expect(csvEncoding(text('Zoë'))).toBe('utf-8');
    // A multi-byte character cut at the end of the head is still UTF-8.
    expect(csvEncoding(text('Zoë').subarray(0, 3))).toBe('utf-8');
    expect(csvEncoding(bytes(0xff, 0xfe, 0x41, 0))).toBe('utf-16le');
    expect(csvEncoding(bytes(0x5a, 0x6f, 0xeb, 0x20))).toBe('windows-1252');
    expect(createTextDecoder('windows-1252')(bytes(0x5a, 0x6f, 0xeb, 0x80, 0x93))).toBe('Zoë€“');
    const utf8 = createTextDecoder('utf-8');
    const encoded = text('ë');
    expect(utf8(encoded.subarray(0, 1)) + utf8(encoded.subarray(1), true)).toBe('ë');
  });
});

/** A zip's central directory and end record holding one entry with the given header fields. */
function directory(fields: { flags?: number; method?: number; compressed: number; uncompressed: number; offset?: number }, name = 'xl/worksheets/sheet1.xml') {
  const nameBytes = text(name);
  const central = new Uint8Array(46 + nameBytes.length);
  const view = new DataView(central.buffer);
  view.setUint32(0, 0x02014b50, true);
  view.setUint16(8, fields.flags ?? 0, true);
  view.setUint16(10, fields.method ?? 8, true);
  view.setUint32(20, fields.compressed, true);
  view.setUint32(24, fields.uncompressed, true);
  view.setUint16(28, nameBytes.length, true);
  view.setUint32(42, fields.offset ?? 0, true);
  central.set(nameBytes, 46);
  return central;
}

describe('zip central directory', () => {
  it('finds the end record and lists the entries', () => {
    const central = directory({ compressed: 100, uncompressed: 400 });
    const directoryOffset = 200;
    const end = new Uint8Array(22);
    const view = new DataView(end.buffer);
    view.setUint32(0, 0x06054b50, true);
    view.setUint16(8, 1, true);
    view.setUint16(10, 1, true);
    view.setUint32(12, central.length, true);
    view.setUint32(16, directoryOffset, true);
    const tail = new Uint8Array([...central, ...end]);
    const location = zipDirectoryLocation(tail, directoryOffset + tail.length);
    expect(location).toEqual({ offset: directoryOffset, size: central.length, entries: 1 });
    expect(parseZipDirectory(central, 1, directoryOffset)).toEqual([{ name: 'xl/worksheets/sheet1.xml', method: 8, compressedSize: 100, uncompressedSize: 400, localHeaderOffset: 0 }]);
  });

  it('refuses a bomb by its ratio, encryption, unknown methods and entries overlapping the directory', () => {
    const refused = (central: Uint8Array, reason: string) => {
      try {
        parseZipDirectory(central, 1, 10_000_000);
      } catch (error) {
        expect(error).toBeInstanceOf(ZipProblem);
        expect((error as ZipProblem).reason).toBe(reason);
        return;
      }
      throw new Error('not refused');
    };
    refused(directory({ compressed: 50_000, uncompressed: 2_000_000_000 }), 'too_large');
    refused(directory({ flags: 1, compressed: 10, uncompressed: 10 }), 'encrypted');
    refused(directory({ method: 12, compressed: 10, uncompressed: 10 }), 'unreadable');
    refused(directory({ compressed: 9_999_990, uncompressed: 9_999_990, method: 0 }), 'unreadable');
    expect(() => zipDirectoryLocation(new Uint8Array(30), 30)).toThrow(ZipProblem);
  });
});
