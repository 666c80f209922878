/**
 * Spreadsheet files for the tests and the bench of local parsing: workbooks written by exceljs
 * (as Excel-like files come), zips written by hand (to say exactly what a broken or hostile one
 * holds), and CSV text.
 */
import { open } from 'node:fs/promises';
import { crc32, deflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';

export interface ZipPart {
  name: string;
  data: Buffer;
  /** Store instead of deflate. */
  stored?: boolean;
  /** Declare this uncompressed size instead of the real one (a lying archive). */
  declaredSize?: number;
}

/** A zip archive of the parts, local records then the central directory. */
export function zipOf(parts: ZipPart[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const name = Buffer.from(part.name, 'utf8');
    const body = part.stored ? part.data : deflateRawSync(part.data);
    const method = part.stored ? 0 : 8;
    const size = part.declaredSize ?? part.data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc32(part.data), 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc32(part.data), 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const WORKBOOK = '<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Data" sheetId="1" r:id="rId1"/></sheets></workbook>';
const RELS = '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="worksheet" Target="worksheets/sheet1.xml"/></Relationships>';

/** A minimal workbook around a worksheet's `<sheetData>` content. */
export function workbookZip(sheetData: string, extra: ZipPart[] = [], sheetPart: Partial<ZipPart> = {}): Buffer {
  const sheet = `<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${sheetData}</sheetData></worksheet>`;
  return zipOf([
    { name: 'xl/workbook.xml', data: Buffer.from(WORKBOOK) },
    { name: 'xl/_rels/workbook.xml.rels', data: Buffer.from(RELS) },
    ...extra,
    { name: 'xl/worksheets/sheet1.xml', data: Buffer.from(sheet), ...sheetPart },
  ]);
}

export const TEST_HEADER = ['Phone', 'Name', 'City', 'Amount', 'Joined', 'Code', 'Email', 'Note'];
const CITIES = ['Pune', 'Delhi', 'Mumbai', 'Chennai', 'Kolkata'];

/**
 * Of every 1,000 generated rows, one has no number and one repeats the row before it: its number,
 * name and city (the columns the tests map), so that it is a repeat of a personalised send too.
 */
export const TEST_INVALID_EVERY = 1000;

/** The row whose number, name and city row `i` has: the one before for a repeat. */
function repeated(i: number): number {
  return i % TEST_INVALID_EVERY === TEST_INVALID_EVERY / 2 ? i - 1 : i;
}

function testPhone(i: number): number | string {
  if (i % TEST_INVALID_EVERY === TEST_INVALID_EVERY - 1) return 'n/a';
  return 9_000_000_000 + repeated(i);
}

/**
 * Row `i` (from 0) of the generated files: 8 columns; the phone a number cell (or 'n/a', or a
 * repeat: see TEST_INVALID_EVERY), a date, an empty note every 7th row.
 */
export function testRow(i: number): (string | number | Date)[] {
  return [testPhone(i), `Name ${repeated(i)}`, CITIES[repeated(i) % 5] ?? '', i * 1.5, new Date(Date.UTC(2024, 0, 1 + (i % 365))), `C${i % 1000}`, `user${i}@example.com`, i % 7 === 0 ? '' : `note ${i % 50}`];
}

/** Row `i` as the readers give it: cells as text (shared/sheetRows.ts rules), trailing empty cells dropped. */
export function testRowText(i: number): string[] {
  const date = new Date(Date.UTC(2024, 0, 1 + (i % 365))).toISOString().slice(0, 10);
  const cells = [String(testPhone(i)), `Name ${repeated(i)}`, CITIES[repeated(i) % 5] ?? '', String(i * 1.5), date, `C${i % 1000}`, `user${i}@example.com`, i % 7 === 0 ? '' : `note ${i % 50}`];
  while (cells.length > 0 && cells[cells.length - 1] === '') cells.pop();
  return cells;
}

/** Writes `rows` generated rows under TEST_HEADER with exceljs's streaming writer. */
export async function writeTestXlsx(path: string, rows: number, options: { sharedStrings?: boolean } = {}): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useSharedStrings: options.sharedStrings ?? true, useStyles: true });
  const sheet = workbook.addWorksheet('Recipients');
  sheet.addRow(TEST_HEADER).commit();
  for (let i = 0; i < rows; i += 1) sheet.addRow(testRow(i)).commit();
  sheet.commit();
  await workbook.commit();
}

/** The same rows as CSV text (CRLF, the header first), written in blocks. */
export async function writeTestCsv(path: string, rows: number): Promise<void> {
  const file = await open(path, 'w');
  try {
    let block = `${TEST_HEADER.join(',')}\r\n`;
    for (let i = 0; i < rows; i += 1) {
      block += `${testRowText(i).join(',')}\r\n`;
      if (block.length > 1024 * 1024) {
        await file.write(block);
        block = '';
      }
    }
    await file.write(block);
  } finally {
    await file.close();
  }
}
