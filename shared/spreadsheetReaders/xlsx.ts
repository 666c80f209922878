/**
 * The parts of an .xlsx workbook read as text: the worksheet streams through an
 * incremental parser that hands out each row as soon as its `</row>` arrives, so a sheet of a
 * million rows is never held whole. Environment-free: the zip is opened and inflated by the
 * caller (Node's zlib in the desktop worker, DecompressionStream in a browser), which pushes the
 * decoded XML here.
 *
 * Cells become text by the one rule of shared/sheetRows.ts (numbers as written, dates by their
 * style as `2024-05-06` or `2024-05-06 09:05`), as the server's exceljs reader makes them: shared
 * strings, inline strings (rich text runs joined), booleans as TRUE/FALSE, errors as written and
 * formulas by their cached value. Rows and cells may be sparse (`r` attributes), rows may be empty.
 *
 * This is not a general XML parser: it reads what SpreadsheetML writers produce (elements with an
 * optional namespace prefix, attributes in double or single quotes, entities and `_xHHHH_` escapes).
 */
import { dateText, numberText } from '../sheetRows';
import type { RowSink } from './csv';

export interface ChunkParser {
  push(text: string): void;
  end(): void;
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** XML text as written: entities and character references decoded, OOXML's `_xHHHH_` escapes too. */
export function decodeXmlText(text: string): string {
  let out = text;
  if (out.includes('&')) {
    out = out.replace(/&(#x[0-9a-fA-F]+|#\d+|\w+);/g, (whole, name: string) => {
      if (name.startsWith('#x')) return safeCodePoint(Number.parseInt(name.slice(2), 16), whole);
      if (name.startsWith('#')) return safeCodePoint(Number.parseInt(name.slice(1), 10), whole);
      return NAMED_ENTITIES[name] ?? whole;
    });
  }
  if (out.includes('_x')) {
    // `_x005F_` escapes the underscore itself, so `_x005F_x000D_` is the literal text `_x000D_`.
    out = out.replace(/_x([0-9a-fA-F]{4})_/g, (_whole, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  }
  return out;
}

function safeCodePoint(code: number, fallback: string): string {
  return Number.isInteger(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : fallback;
}

/** An attribute's raw value inside one start tag (`name="v"` or `name='v'`), or null. */
export function attribute(tag: string, name: string): string | null {
  let from = 0;
  for (;;) {
    const at = tag.indexOf(name, from);
    if (at === -1) return null;
    from = at + name.length;
    const before = tag.charCodeAt(at - 1);
    // The name must stand alone: preceded by whitespace, followed by `=`.
    if (!(before === 32 || before === 9 || before === 10 || before === 13)) continue;
    let eq = from;
    while (tag[eq] === ' ') eq += 1;
    if (tag[eq] !== '=') continue;
    eq += 1;
    while (tag[eq] === ' ') eq += 1;
    const quote = tag[eq];
    if (quote !== '"' && quote !== "'") return null;
    const end = tag.indexOf(quote, eq + 1);
    return end === -1 ? null : tag.slice(eq + 1, end);
  }
}

/** The text of every `<t>` in a string item (`<si>` or `<is>`), phonetic runs (`<rPh>`) left out. */
function stringItemText(xml: string, prefix: string): string {
  const open = `<${prefix}t`;
  const close = `</${prefix}t>`;
  const phonetic = `<${prefix}rPh`;
  const phoneticEnd = `</${prefix}rPh>`;
  let text = '';
  let at = 0;
  for (;;) {
    const start = xml.indexOf(open, at);
    if (start === -1) break;
    const phoneticAt = xml.indexOf(phonetic, at);
    if (phoneticAt !== -1 && phoneticAt < start) {
      const skip = xml.indexOf(phoneticEnd, phoneticAt);
      if (skip === -1) break;
      at = skip + phoneticEnd.length;
      continue;
    }
    const after = xml.charCodeAt(start + open.length);
    // `<t>`, `<t xml:space="preserve">`, or an empty `<t/>`; not `<tx...>`.
    if (after !== 62 && after !== 32 && after !== 47) {
      at = start + open.length;
      continue;
    }
    const tagEnd = xml.indexOf('>', start);
    if (tagEnd === -1) break;
    if (xml.charCodeAt(tagEnd - 1) === 47) {
      at = tagEnd + 1;
      continue;
    }
    const end = xml.indexOf(close, tagEnd);
    if (end === -1) break;
    text += xml.slice(tagEnd + 1, end);
    at = end + close.length;
  }
  return decodeXmlText(text);
}

/** The namespace prefix of a root element (`x:` in `<x:worksheet`), '' when there is none. */
function rootPrefix(text: string, localName: string): string | null {
  const match = new RegExp(`<([A-Za-z_][\\w.-]*:)?${localName}[\\s>/]`).exec(text);
  if (!match) return null;
  return match[1] ?? '';
}

/**
 * Calls `onItem` with each `<open ...>...</close>` element (or self-closed `<open .../>`) as the
 * chunks complete them; the element's text goes in whole, nothing else is kept.
 */
function elementStream(localName: string, root: string, onItem: (xml: string, prefix: string) => void): ChunkParser {
  let pending = '';
  let prefix: string | null = null;
  let open = '';
  let close = '';
  const scan = (final: boolean) => {
    if (prefix === null) {
      prefix = rootPrefix(pending, root);
      if (prefix === null) {
        if (final) pending = '';
        return;
      }
      open = `<${prefix}${localName}`;
      close = `</${prefix}${localName}>`;
    }
    let at = 0;
    for (;;) {
      const start = pending.indexOf(open, at);
      if (start === -1) {
        // Keep a tail that may hold the start of the next element's name.
        at = Math.max(at, pending.length - open.length);
        break;
      }
      const after = pending.charCodeAt(start + open.length);
      if (Number.isNaN(after)) {
        at = start;
        break;
      }
      if (after !== 62 && after !== 32 && after !== 47 && after !== 9 && after !== 10 && after !== 13) {
        at = start + open.length;
        continue;
      }
      const tagEnd = pending.indexOf('>', start);
      if (tagEnd === -1) {
        at = start;
        break;
      }
      if (pending.charCodeAt(tagEnd - 1) === 47) {
        onItem(pending.slice(start, tagEnd + 1), prefix);
        at = tagEnd + 1;
        continue;
      }
      const end = pending.indexOf(close, tagEnd);
      if (end === -1) {
        at = start;
        break;
      }
      onItem(pending.slice(start, end + close.length), prefix);
      at = end + close.length;
    }
    pending = final ? '' : pending.slice(at);
  };
  return {
    push(text) {
      pending += text;
      scan(false);
    },
    end() {
      scan(true);
    },
  };
}

/** Parses xl/sharedStrings.xml as it arrives; `strings` holds every item in order. */
export function createSharedStringsParser(): ChunkParser & { readonly strings: string[] } {
  const strings: string[] = [];
  const parser = elementStream('si', 'sst', (xml, prefix) => strings.push(stringItemText(xml, prefix)));
  return { push: parser.push, end: parser.end, strings };
}

/** Excel's built-in number formats that show a date or a time. */
const BUILTIN_DATE_FORMATS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54, 55, 56, 57, 58]);

/** A custom format shows a date when it has date or time letters outside quotes, brackets and escapes. */
export function isDateFormat(code: string): boolean {
  const bare = code
    .replace(/"[^"]*"/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\\./g, '')
    .replace(/_./g, '')
    .replace(/\*./g, '');
  // A section for text or general numbers only is not a date.
  if (/^(general|@)$/i.test(bare.trim())) return false;
  return /[dmyhs]/i.test(bare.replace(/(am\/pm|a\/p)/gi, 'h'));
}

/** For each cell style (`cellXfs` index), whether its number format shows a date. */
export function parseDateStyles(stylesXml: string): boolean[] {
  const prefix = rootPrefix(stylesXml, 'styleSheet') ?? '';
  const customDates = new Set<number>();
  for (const match of stylesXml.matchAll(new RegExp(`<${prefix}numFmt\\s[^>]*>`, 'g'))) {
    const id = Number(attribute(match[0], 'numFmtId'));
    const code = decodeXmlText(attribute(match[0], 'formatCode') ?? '');
    if (Number.isInteger(id) && isDateFormat(code)) customDates.add(id);
  }
  const xfsStart = stylesXml.indexOf(`<${prefix}cellXfs`);
  const xfsEnd = stylesXml.indexOf(`</${prefix}cellXfs>`, xfsStart);
  if (xfsStart === -1 || xfsEnd === -1) return [];
  const section = stylesXml.slice(xfsStart, xfsEnd);
  const dates: boolean[] = [];
  for (const match of section.matchAll(new RegExp(`<${prefix}xf[\\s>/][^>]*>?`, 'g'))) {
    const id = Number(attribute(match[0], 'numFmtId') ?? '0');
    dates.push(BUILTIN_DATE_FORMATS.has(id) || customDates.has(id));
  }
  return dates;
}

export interface WorkbookInfo {
  /** The relationship id of the first sheet in tab order. */
  firstSheetRelationship: string | null;
  /** The 1904 date system (old Mac workbooks) counts days from 1904-01-01. */
  date1904: boolean;
}

export function parseWorkbook(workbookXml: string): WorkbookInfo {
  const prefix = rootPrefix(workbookXml, 'workbook') ?? '';
  const properties = new RegExp(`<${prefix}workbookPr\\s[^>]*>`).exec(workbookXml)?.[0] ?? '';
  const date1904 = /^(1|true)$/.test(attribute(properties, 'date1904') ?? '');
  const sheet = new RegExp(`<${prefix}sheet\\s[^>]*>`).exec(workbookXml)?.[0] ?? '';
  const relationship = /\sr:id\s*=\s*["']([^"']*)["']/.exec(sheet)?.[1] ?? /\s[\w.-]+:id\s*=\s*["']([^"']*)["']/.exec(sheet)?.[1] ?? null;
  return { firstSheetRelationship: relationship, date1904 };
}

/** The zip path a relationship of xl/workbook.xml points to (targets are relative to xl/, or absolute). */
export function relationshipTarget(relsXml: string, id: string): string | null {
  for (const match of relsXml.matchAll(/<(?:[\w.-]+:)?Relationship\s[^>]*>/g)) {
    if (attribute(match[0], 'Id') !== id) continue;
    const target = decodeXmlText(attribute(match[0], 'Target') ?? '');
    if (target === '') return null;
    if (target.startsWith('/')) return target.slice(1);
    const parts = ['xl'];
    for (const part of target.split('/')) {
      if (part === '..') parts.pop();
      else if (part !== '.' && part !== '') parts.push(part);
    }
    return parts.join('/');
  }
  return null;
}

/** Column letters of a cell reference as a 0-based index (`A1` 0, `AB7` 27), or -1. */
export function columnIndex(reference: string): number {
  let index = 0;
  let letters = 0;
  for (let i = 0; i < reference.length; i += 1) {
    const code = reference.charCodeAt(i);
    const upper = code >= 97 && code <= 122 ? code - 32 : code;
    if (upper < 65 || upper > 90) break;
    index = index * 26 + (upper - 64);
    letters += 1;
  }
  return letters === 0 ? -1 : index - 1;
}

/** An Excel serial day number as the wall-clock moment it shows, in UTC fields (as exceljs reads it). */
export function excelSerialDate(serial: number, date1904: boolean): Date {
  const days = date1904 ? serial + 1462 : serial;
  return new Date(Math.round((days - 25569) * 86_400_000));
}

/** 1 to 15 digits without a leading zero: a number whose text is the same digits (numberText's answer). */
function isPlainInteger(raw: string): boolean {
  const length = raw.length;
  if (length === 0 || length > 15) return false;
  if (raw.charCodeAt(0) === 48) return length === 1;
  for (let i = 0; i < length; i += 1) {
    const code = raw.charCodeAt(i);
    if (code < 48 || code > 57) return false;
  }
  return true;
}

const pad2 = (value: number) => (value < 10 ? `0${value}` : String(value));

/**
 * A date cell's text: dateText(excelSerialDate(...)) without building a Date for whole days (the
 * common case, and a million of them in a large sheet). Days are turned into a calendar date with
 * the civil-from-days algorithm (proleptic Gregorian, as Date is).
 */
export function serialDateText(serial: number, date1904: boolean): string {
  if (!Number.isInteger(serial)) return dateText(excelSerialDate(serial, date1904));
  const daysSinceEpoch = (date1904 ? serial + 1462 : serial) - 25569;
  const z = daysSinceEpoch + 719468;
  const era = Math.floor(z / 146097);
  const dayOfEra = z - era * 146097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36524) - Math.floor(dayOfEra / 146096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthIndex = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthIndex + 2) / 5) + 1;
  const month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  if (year < 1000 || year > 9999) return dateText(excelSerialDate(serial, date1904));
  return `${year}-${pad2(month)}-${pad2(day)}`;
}

export interface SheetParserOptions {
  sharedStrings: readonly string[];
  dateStyles: readonly boolean[];
  date1904: boolean;
  /** Cells further right are refused with `onTooWide` when they hold a value. */
  maxColumns: number;
  onTooWide: () => never;
}

/**
 * Parses a worksheet's XML as it arrives and calls `onRow` with each row's cells as text (trailing
 * empty cells dropped; gaps filled with '') and its row number (its `r`, else one past the last).
 * Rows with no cell at all are passed on too (as []), so the caller sees every row it may skip.
 */
export function createSheetParser(options: SheetParserOptions, onRow: RowSink): ChunkParser {
  const { sharedStrings, dateStyles, date1904, maxColumns } = options;
  let lastRow = 0;
  let prefix = '';
  let tokens = { c: '<c', cClose: '</c>', v: '<v', vClose: '</v>', is: '<is', isClose: '</is>' };

  const cellValue = (type: string | null, style: number, raw: string | null, inline: string | null): string => {
    if (inline !== null) return inline;
    if (raw === null) return '';
    switch (type) {
      case 's': {
        const index = Number(raw);
        return sharedStrings[index] ?? '';
      }
      case 'str':
      case 'inlineStr':
      case 'e':
        return decodeXmlText(raw);
      case 'b':
        return raw.trim() === '1' ? 'TRUE' : 'FALSE';
      case 'd': {
        const date = new Date(decodeXmlText(raw).trim());
        return dateText(date);
      }
      default: {
        const isDate = dateStyles[style] === true;
        // Whole numbers as Excel writes them (no sign, exponent or leading zero) are their own text.
        if (!isDate && isPlainInteger(raw)) return raw;
        const value = Number(raw);
        if (raw.trim() === '' || Number.isNaN(value)) return decodeXmlText(raw);
        if (isDate) return serialDateText(value, date1904);
        return numberText(value);
      }
    }
  };

  const parseRow = (xml: string) => {
    const rowTagEnd = xml.indexOf('>');
    const rowTag = xml.slice(0, rowTagEnd + 1);
    const number = Number(attribute(rowTag, 'r'));
    const line = Number.isInteger(number) && number > 0 ? number : lastRow + 1;
    lastRow = line;
    const cells: string[] = [];
    if (xml.charCodeAt(rowTagEnd - 1) === 47) {
      onRow(cells, line);
      return;
    }
    let at = rowTagEnd + 1;
    let nextColumn = 0;
    const { c, cClose, v, vClose, is, isClose } = tokens;
    for (;;) {
      const start = xml.indexOf(c, at);
      if (start === -1) break;
      let i = start + c.length;
      const after = xml.charCodeAt(i);
      if (after !== 32 && after !== 62 && after !== 47 && after !== 9 && after !== 10 && after !== 13) {
        at = i;
        continue;
      }
      // The start tag's attributes, read in place: r (reference), s (style), t (type).
      let column = -1;
      let style = 0;
      let type: string | null = null;
      let selfClosed = false;
      let tagClosed = false;
      while (i < xml.length) {
        const code = xml.charCodeAt(i);
        if (code === 62) {
          selfClosed = xml.charCodeAt(i - 1) === 47;
          tagClosed = true;
          i += 1;
          break;
        }
        if (code === 34 || code === 39) {
          // A value of an attribute not read here.
          const close = xml.indexOf(code === 34 ? '"' : "'", i + 1);
          i = close === -1 ? xml.length : close + 1;
          continue;
        }
        if ((code === 32 || code === 9 || code === 10 || code === 13) && xml.charCodeAt(i + 2) === 61) {
          const name = xml.charCodeAt(i + 1);
          const quote = xml.charCodeAt(i + 3);
          if ((name === 114 || name === 115 || name === 116) && (quote === 34 || quote === 39)) {
            const close = xml.indexOf(quote === 34 ? '"' : "'", i + 4);
            if (close === -1) break;
            if (name === 114) column = columnIndex(xml.slice(i + 4, close));
            else if (name === 115) style = Number(xml.slice(i + 4, close)) || 0;
            else type = xml.slice(i + 4, close);
            i = close + 1;
            continue;
          }
        }
        i += 1;
      }
      if (!tagClosed) break;
      if (column < 0) column = nextColumn;
      nextColumn = column + 1;
      if (selfClosed) {
        at = i;
        continue;
      }
      let end = xml.indexOf(cClose, i);
      if (end === -1) end = xml.length;
      at = end + cClose.length;
      let raw: string | null = null;
      let inline: string | null = null;
      const vStart = xml.indexOf(v, i);
      if (vStart !== -1 && vStart < end) {
        const vTagEnd = xml.indexOf('>', vStart);
        if (xml.charCodeAt(vTagEnd - 1) !== 47) {
          const vEnd = xml.indexOf(vClose, vTagEnd);
          raw = xml.slice(vTagEnd + 1, vEnd === -1 || vEnd > end ? end : vEnd);
        }
      }
      if (type === 'inlineStr') {
        const isStart = xml.indexOf(is, i);
        if (isStart !== -1 && isStart < end) {
          const isEnd = xml.indexOf(isClose, isStart);
          inline = stringItemText(xml.slice(isStart, isEnd === -1 || isEnd > end ? end : isEnd), prefix);
        }
      }
      const text = cellValue(type, style, raw, inline);
      if (column >= maxColumns) {
        if (text.trim() !== '') options.onTooWide();
        continue;
      }
      while (cells.length < column) cells.push('');
      cells[column] = text;
    }
    let width = cells.length;
    while (width > 0 && (cells[width - 1] ?? '').trim() === '') width -= 1;
    cells.length = width;
    onRow(cells, line);
  };

  return elementStream('row', 'worksheet', (xml, rowPrefix) => {
    if (rowPrefix !== prefix) {
      prefix = rowPrefix;
      tokens = { c: `<${prefix}c`, cClose: `</${prefix}c>`, v: `<${prefix}v`, vClose: `</${prefix}v>`, is: `<${prefix}is`, isClose: `</${prefix}is>` };
    }
    parseRow(xml);
  });
}
