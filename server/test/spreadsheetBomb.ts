/**
 * Spreadsheet decompression bombs built in memory for the parsing tests, never
 * committed as binaries. The bomb is a valid .xlsx whose shared-strings part inflates to far more
 * than the file: a reader holds every shared string, so reading it would cost memory in proportion
 * to the inflated size, not the upload's. A stored (uncompressed) filler entry keeps the archive's
 * overall compression ratio under the zip guard's limit, as a real attacker would; the reader's
 * limit on each entry's own ratio still refuses it.
 */
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { createDeflateRaw, crc32 } from 'node:zlib';

const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PACKAGE_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';

interface ZipPart {
  name: string;
  /** Stored (method 0) or deflated (method 8). */
  method: 0 | 8;
  crc: number;
  size: number;
  body: Buffer;
}

function stored(name: string, data: Buffer): ZipPart {
  return { name, method: 0, crc: crc32(data), size: data.length, body: data };
}

/** Deflates `chunks` one at a time: the inflated part never exists in memory in one piece. */
async function deflated(name: string, chunks: Iterable<Buffer>): Promise<ZipPart> {
  let crc = 0;
  let size = 0;
  function* counted() {
    for (const chunk of chunks) {
      crc = crc32(chunk, crc);
      size += chunk.length;
      yield chunk;
    }
  }
  const out: Buffer[] = [];
  for await (const piece of Readable.from(counted()).pipe(createDeflateRaw({ level: 9 }))) out.push(piece as Buffer);
  return { name, method: 8, crc, size, body: Buffer.concat(out) };
}

function zip(parts: ZipPart[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const name = Buffer.from(part.name, 'latin1');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(part.method, 8);
    local.writeUInt32LE(part.crc, 14);
    local.writeUInt32LE(part.body.length, 18);
    local.writeUInt32LE(part.size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(part.method, 10);
    central.writeUInt32LE(part.crc, 16);
    central.writeUInt32LE(part.body.length, 20);
    central.writeUInt32LE(part.size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, part.body);
    centrals.push(central, name);
    offset += local.length + name.length + part.body.length;
  }
  const centralBytes = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(centralBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, centralBytes, end]);
}

const xml = (text: string) => Buffer.from(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${text}`);

/** The parts every workbook here shares: one sheet, whose A1 is shared string 0 and A2 a number. */
function workbookParts(options: { brokenSheet?: boolean } = {}): ZipPart[] {
  return [
    stored(
      '[Content_Types].xml',
      xml(
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
          '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
          '<Default Extension="xml" ContentType="application/xml"/>' +
          '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
          '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
          '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>' +
          '</Types>',
      ),
    ),
    stored('_rels/.rels', xml(`<Relationships xmlns="${PACKAGE_REL_NS}"><Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`)),
    stored('xl/workbook.xml', xml(`<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheets><sheet name="Recipients" sheetId="1" r:id="rId1"/></sheets></workbook>`)),
    stored(
      'xl/_rels/workbook.xml.rels',
      xml(
        `<Relationships xmlns="${PACKAGE_REL_NS}">` +
          `<Relationship Id="rId1" Type="${REL_NS}/worksheet" Target="worksheets/sheet1.xml"/>` +
          `<Relationship Id="rId2" Type="${REL_NS}/sharedStrings" Target="sharedStrings.xml"/>` +
          '</Relationships>',
      ),
    ),
    options.brokenSheet
      ? // A sound zip directory whose worksheet data the inflater itself rejects (a reserved block type).
        { name: 'xl/worksheets/sheet1.xml', method: 8, crc: 0, size: 64, body: Buffer.alloc(16, 0xff) }
      : stored(
          'xl/worksheets/sheet1.xml',
          xml(`<worksheet xmlns="${MAIN_NS}"><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c></row><row r="2"><c r="A2"><v>919876543210</v></c></row></sheetData></worksheet>`),
        ),
  ];
}

/**
 * A small, honest workbook in the same hand-built layout (Phone / 919876543210): the control.
 * `brokenSheet`: its worksheet's deflate stream is corrupt, so the inflater fails on it.
 */
export async function smallWorkbook(options: { brokenSheet?: boolean } = {}): Promise<Buffer> {
  return zip([...workbookParts(options), await deflated('xl/sharedStrings.xml', [xml(`<sst xmlns="${MAIN_NS}"><si><t>Phone</t></si></sst>`)])]);
}

export interface BombOptions {
  /** Size of the shared-strings part once inflated (default 120 MB, under the zip guard's 200 MB). */
  inflatedBytes?: number;
}

/**
 * An .xlsx of about 1.3 MB whose shared strings inflate to `inflatedBytes`: five million rich-text
 * entries of one two-letter run, each a string held by the reader.
 */
export async function sharedStringsBomb(options: BombOptions = {}): Promise<Buffer> {
  const inflated = options.inflatedBytes ?? 120 * 1024 * 1024;
  const item = '<si><r><t>ab</t></r></si>';
  const perChunk = Math.floor((1024 * 1024) / item.length);
  const chunk = Buffer.from(item.repeat(perChunk));
  const chunks = Math.max(1, Math.floor(inflated / chunk.length));
  function* strings() {
    yield xml(`<sst xmlns="${MAIN_NS}" count="${chunks * perChunk + 1}" uniqueCount="${chunks * perChunk + 1}"><si><t>Phone</t></si>`);
    for (let i = 0; i < chunks; i += 1) yield chunk;
    yield Buffer.from('</sst>');
  }
  const sharedStrings = await deflated('xl/sharedStrings.xml', strings());
  // Incompressible padding (a "thumbnail") that brings the whole archive under 100:1.
  const ratioLimit = 100;
  const padding = Math.ceil((sharedStrings.size * 1.1) / ratioLimit);
  return zip([...workbookParts(), sharedStrings, stored('docProps/thumbnail.jpeg', randomBytes(padding))]);
}
