import { describe, expect, it } from 'vitest';
import {
  attribute,
  columnIndex,
  createSharedStringsParser,
  createSheetParser,
  decodeXmlText,
  excelSerialDate,
  isDateFormat,
  parseDateStyles,
  parseWorkbook,
  relationshipTarget,
  serialDateText,
} from './xlsx';
import { dateText } from '../sheetRows';

function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length; at += size) out.push(text.slice(at, at + size));
  return out;
}

function sheetRows(xml: string, size: number, sharedStrings: string[] = [], dateStyles: boolean[] = [], date1904 = false): [number, string[]][] {
  const rows: [number, string[]][] = [];
  const parser = createSheetParser(
    {
      sharedStrings,
      dateStyles,
      date1904,
      maxColumns: 10,
      onTooWide: () => {
        throw new Error('too wide');
      },
    },
    (cells, line) => rows.push([line, cells]),
  );
  for (const piece of pieces(xml, size)) parser.push(piece);
  parser.end();
  return rows;
}

const SHEET = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><dimension ref="A1:D6"/><sheetData>
<row r="1" spans="1:4"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="inlineStr"><is><t>When</t></is></c><c r="D1" t="s"><v>2</v></c></row>
<row r="2"><c r="A2"><v>919876543210</v></c><c r="B2" t="inlineStr"><is><r><t>Asha </t></r><r><rPr><b/></rPr><t xml:space="preserve">&amp; Co</t></r></is></c><c r="C2" s="1"><v>45418.5</v></c><c r="D2" t="b"><v>1</v></c></row>
<row r="3"/>
<row r="5"><c r="B5" t="str"><f>A1&amp;"x"</f><v>Phone_x000D_x</v></c><c r="D5" t="e"><v>#N/A</v></c><c r="E5"/></row>
<row r="6"><c r="A6"><v>1.5E-3</v></c><c r="C6" s="1"><v>45418</v></c></row>
</sheetData><rowBreaks count="1"><brk id="3"/></rowBreaks></worksheet>`;

const EXPECTED: [number, string[]][] = [
  [1, ['Phone', 'Name', 'When', 'Flag']],
  [2, ['919876543210', 'Asha & Co', '2024-05-06 12:00', 'TRUE']],
  [3, []],
  [5, ['', 'Phone\rx', '', '#N/A']],
  [6, ['0.0015', '', '2024-05-06']],
];

describe('createSheetParser', () => {
  it('reads shared and inline strings, rich text, numbers, dates by style, booleans, errors and sparse cells', () => {
    expect(sheetRows(SHEET, SHEET.length, ['Phone', 'Name', 'Flag'], [false, true])).toEqual(EXPECTED);
  });

  it('gives the same rows whatever the chunk boundaries', () => {
    for (const size of [1, 3, 7, 64]) expect(sheetRows(SHEET, size, ['Phone', 'Name', 'Flag'], [false, true])).toEqual(EXPECTED);
  });

  it('reads a namespace prefix, rows and cells without references, and the 1904 date system', () => {
    const xml = '<x:worksheet xmlns:x="main"><x:sheetData><x:row><x:c t="inlineStr"><x:is><x:t>a</x:t></x:is></x:c><x:c s="1"><x:v>0</x:v></x:c></x:row><x:row><x:c><x:v>2</x:v></x:c></x:row></x:sheetData></x:worksheet>';
    expect(sheetRows(xml, 5, [], [false, true], true)).toEqual([
      [1, ['a', '1904-01-01']],
      [2, ['2']],
    ]);
  });

  it('refuses a value past the column limit but ignores an empty cell there', () => {
    expect(sheetRows('<worksheet><sheetData><row r="1"><c r="A1"><v>1</v></c><c r="Z1"/></row></sheetData></worksheet>', 9)).toEqual([[1, ['1']]]);
    expect(() => sheetRows('<worksheet><sheetData><row r="1"><c r="Z1"><v>1</v></c></row></sheetData></worksheet>', 9)).toThrow('too wide');
  });
});

describe('workbook parts', () => {
  it('reads shared strings across chunks, leaving phonetic runs out', () => {
    const xml = '<sst count="3"><si><t>Phone</t></si><si><r><t>Na</t></r><r><t>me</t></r><rPh><t>ナ</t></rPh></si><si><t/></si><si><t xml:space="preserve"> x &lt;y&gt; </t></si></sst>';
    const parser = createSharedStringsParser();
    for (const piece of pieces(xml, 4)) parser.push(piece);
    parser.end();
    expect(parser.strings).toEqual(['Phone', 'Name', '', ' x <y> ']);
  });

  it('tells date styles from number styles, built-in and custom', () => {
    const styles = `<styleSheet><numFmts count="2"><numFmt numFmtId="164" formatCode="dd/mm/yyyy hh:mm"/><numFmt numFmtId="165" formatCode="&quot;Rs&quot; #,##0.00"/></numFmts>
      <cellStyleXfs count="1"><xf numFmtId="14"/></cellStyleXfs>
      <cellXfs count="5"><xf numFmtId="0" fontId="0"/><xf numFmtId="14" applyNumberFormat="1"/><xf numFmtId="164"/><xf numFmtId="165"/><xf numFmtId="49"/></cellXfs></styleSheet>`;
    expect(parseDateStyles(styles)).toEqual([false, true, true, false, false]);
    expect(isDateFormat('[Red]0.00')).toBe(false);
    expect(isDateFormat('h:mm AM/PM')).toBe(true);
    expect(isDateFormat('"day" 0')).toBe(false);
  });

  it('finds the first sheet in tab order and its part, relative or absolute', () => {
    const workbook = '<workbook xmlns:r="rel"><workbookPr date1904="1"/><sheets><sheet name="Data" sheetId="3" r:id="rId7"/><sheet name="B" sheetId="1" r:id="rId1"/></sheets></workbook>';
    expect(parseWorkbook(workbook)).toEqual({ firstSheetRelationship: 'rId7', date1904: true });
    const rels = '<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/><Relationship Id="rId7" Target="worksheets/sheet3.xml"/><Relationship Id="rId9" Target="/xl/worksheets/x.xml"/></Relationships>';
    expect(relationshipTarget(rels, 'rId7')).toBe('xl/worksheets/sheet3.xml');
    expect(relationshipTarget(rels, 'rId9')).toBe('xl/worksheets/x.xml');
    expect(relationshipTarget(rels, 'rId2')).toBeNull();
  });
});

describe('helpers', () => {
  it('decodes entities and OOXML escapes', () => {
    expect(decodeXmlText('a &amp; b &#65;&#x42; &bogus; _x000A_ _x005F_')).toBe('a & b AB &bogus; \n _');
  });

  it('reads attributes only by their whole name', () => {
    expect(attribute('<c r="B2" s="3" t="s">', 's')).toBe('3');
    expect(attribute('<c xr="1" r=\'C9\'>', 'r')).toBe('C9');
    expect(attribute('<c r="B2">', 't')).toBeNull();
  });

  it('turns column letters into indexes and serial days into dates', () => {
    expect([columnIndex('A1'), columnIndex('z9'), columnIndex('AA10'), columnIndex('XFD1'), columnIndex('12')]).toEqual([0, 25, 26, 16383, -1]);
    expect(excelSerialDate(45418.25, false).toISOString()).toBe('2024-05-06T06:00:00.000Z');
  });

  it('writes whole serial days as dateText does, without building dates', () => {
    for (let serial = -800_000; serial <= 2_958_465; serial += 997) {
      for (const date1904 of [false, true]) expect(serialDateText(serial, date1904)).toBe(dateText(excelSerialDate(serial, date1904)));
    }
    expect(serialDateText(45418.5, false)).toBe('2024-05-06 12:00');
  });
});
