import { deflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { assertSafeZip, declaredUncompressedBytes, DEFAULT_ZIP_LIMITS, readCentralDirectory, ZIP_TAIL_BYTES, ZipRefusedError, type ZipLimits } from './zipGuard';

interface TestEntry {
  name: string;
  data: Buffer;
  stored?: boolean;
  /** What the headers claim; the real size otherwise. */
  declaredSize?: number;
  flags?: number;
  /** Write the sizes in a trailing data descriptor (bit 3), zero in the local header. */
  descriptor?: boolean;
  /** Name written in the local header, when it should differ from the central one. */
  localName?: string;
}

/** A minimal zip writer for crafting archives the real tools would never produce. CRCs are 0: the guard does not read them. */
function buildZip(entries: TestEntry[], options: { hidden?: TestEntry; zip64?: boolean } = {}): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  const writeLocal = (entry: TestEntry) => {
    const body = entry.stored ? entry.data : deflateRawSync(entry.data);
    const size = entry.declaredSize ?? entry.data.length;
    const flags = (entry.flags ?? 0) | (entry.descriptor ? 0x8 : 0);
    const localName = Buffer.from(entry.localName ?? entry.name, 'latin1');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(entry.stored ? 0 : 8, 8);
    local.writeUInt32LE(entry.descriptor ? 0 : body.length, 18);
    local.writeUInt32LE(entry.descriptor ? 0 : size, 22);
    local.writeUInt16LE(localName.length, 26);
    const parts = [local, localName, body];
    if (entry.descriptor) {
      const descriptor = Buffer.alloc(16);
      descriptor.writeUInt32LE(0x08074b50, 0);
      descriptor.writeUInt32LE(body.length, 8);
      descriptor.writeUInt32LE(size, 12);
      parts.push(descriptor);
    }
    const start = offset;
    for (const part of parts) {
      locals.push(part);
      offset += part.length;
    }
    return { start, flags, compressed: body.length, size };
  };
  for (const entry of entries) {
    const { start, flags, compressed, size } = writeLocal(entry);
    const name = Buffer.from(entry.name, 'latin1');
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(entry.stored ? 0 : 8, 10);
    central.writeUInt32LE(compressed, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(start, 42);
    centrals.push(central, name);
  }
  if (options.hidden) writeLocal(options.hidden);
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(options.zip64 ? 0xffffffff : offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

async function refusal(zip: Buffer, limits?: ZipLimits): Promise<string> {
  try {
    await assertSafeZip(zip, limits);
  } catch (error) {
    if (error instanceof ZipRefusedError) return error.reason;
    throw error;
  }
  return 'accepted';
}

const text = (s: string) => Buffer.from(s, 'utf8');

describe('zip guard', () => {
  it('accepts a workbook written by exceljs', async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Sheet').addRow(['Phone', 919876543210]);
    const zip = Buffer.from(await workbook.xlsx.writeBuffer());
    const entries = await assertSafeZip(zip);
    expect(entries.map((e) => e.name)).toContain('xl/worksheets/sheet1.xml');
  });

  it('accepts stored, deflated and data-descriptor entries', async () => {
    const zip = buildZip([
      { name: 'a.txt', data: text('hello'), stored: true },
      { name: 'b.xml', data: text('<x/>'.repeat(100)) },
      { name: 'c.xml', data: text('<y/>'.repeat(100)), descriptor: true },
    ]);
    expect(await refusal(zip)).toBe('accepted');
    expect(readCentralDirectory(zip).map((e) => e.uncompressedSize)).toEqual([5, 400, 400]);
  });

  it('refuses a central directory that claims a huge uncompressed size', async () => {
    const zip = buildZip([{ name: 'xl/worksheets/sheet1.xml', data: text('<a/>'), declaredSize: 300 * 1024 * 1024 }]);
    expect(await refusal(zip)).toBe('too_large');
  });

  it('refuses honest entries whose total passes the cap', async () => {
    const limits = { ...DEFAULT_ZIP_LIMITS, maxUncompressedBytes: 4 * 1024 * 1024 };
    const zip = buildZip([
      { name: 'one', data: Buffer.alloc(3 * 1024 * 1024, 0x41) },
      { name: 'two', data: Buffer.alloc(3 * 1024 * 1024, 0x41) },
    ]);
    expect(await refusal(zip, limits)).toBe('too_large');
  });

  it('refuses a real highly compressible entry by its ratio', async () => {
    const zip = buildZip([{ name: 'xl/sharedStrings.xml', data: Buffer.alloc(16 * 1024 * 1024, 0x20) }]);
    expect(zip.length).toBeLessThan(100 * 1024);
    expect(await refusal(zip)).toBe('too_large');
  });

  it('catches an entry that inflates past the size it declares', async () => {
    const zip = buildZip([{ name: 'xl/worksheets/sheet1.xml', data: Buffer.alloc(8 * 1024 * 1024, 0x30), declaredSize: 1000 }]);
    expect(readCentralDirectory(zip)).toHaveLength(1); // the headers alone look harmless
    expect(await refusal(zip)).toBe('too_large');
  });

  it('refuses an entry that inflates to less than it declares', async () => {
    const zip = buildZip([{ name: 'a.xml', data: text('<a/>'), declaredSize: 1000 }]);
    expect(await refusal(zip)).toBe('malformed');
  });

  it('refuses a local entry the central directory does not list', async () => {
    const zip = buildZip([{ name: 'a.xml', data: text('<a/>') }], {
      hidden: { name: 'xl/sharedStrings.xml', data: Buffer.alloc(1024 * 1024) },
    });
    expect(await refusal(zip)).toBe('malformed');
  });

  it('refuses a local name that differs from the central one', async () => {
    const zip = buildZip([{ name: 'docProps/app.xml', localName: 'xl/sharedStrings.xml', data: text('<a/>') }]);
    expect(await refusal(zip)).toBe('malformed');
  });

  it('refuses encrypted entries, zip64 and too many entries', async () => {
    expect(await refusal(buildZip([{ name: 'a', data: text('x'), flags: 0x1 }]))).toBe('encrypted');
    expect(await refusal(buildZip([{ name: 'a', data: text('x') }], { zip64: true }))).toBe('unsupported');
    const many = buildZip(Array.from({ length: 20 }, (_, i) => ({ name: `f${i}`, data: text('x'), stored: true })));
    expect(await refusal(many, { ...DEFAULT_ZIP_LIMITS, maxEntries: 10 })).toBe('too_large');
  });

  it('refuses truncated and garbage input', async () => {
    const zip = buildZip([{ name: 'a.xml', data: text('<a/>'.repeat(50)) }]);
    expect(await refusal(zip.subarray(0, zip.length - 5))).toBe('malformed');
    expect(await refusal(Buffer.from('PK\u0003\u0004 not really a zip'))).toBe('malformed');
    expect(await refusal(Buffer.alloc(0))).toBe('malformed');
    const corrupt = Buffer.from(zip);
    corrupt.fill(0xff, 40, 60); // inside the deflate stream
    expect(['malformed', 'too_large']).toContain(await refusal(corrupt));
  });
});

describe('declaredUncompressedBytes', () => {
  it('sums the sizes the central directory declares from the last bytes of the file alone', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Recipients');
    for (let i = 0; i < 20_000; i += 1) sheet.addRow([919800000000 + i, `Name ${i}`]);
    const zip = Buffer.from(await workbook.xlsx.writeBuffer());
    expect(zip.length).toBeGreaterThan(ZIP_TAIL_BYTES);
    const declared = readCentralDirectory(zip).reduce((sum, entry) => sum + entry.uncompressedSize, 0);
    expect(declaredUncompressedBytes(zip.subarray(zip.length - ZIP_TAIL_BYTES), zip.length)).toBe(declared);
    expect(declaredUncompressedBytes(zip, zip.length)).toBe(declared);
    // Not a zip, or a directory that does not end the file: nothing is claimed.
    expect(declaredUncompressedBytes(Buffer.alloc(100), 100)).toBeNull();
    expect(declaredUncompressedBytes(zip.subarray(zip.length - ZIP_TAIL_BYTES), zip.length + 10)).toBeNull();
  });
});
