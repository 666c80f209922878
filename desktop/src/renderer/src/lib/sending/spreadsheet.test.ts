import { describe, expect, it } from 'vitest';
import { messages } from '@shared/messages';
import { MB } from './setup';
import { importFileError, readParsedSheet, spreadsheetFileError } from './spreadsheet';

const s = messages.sending;

describe('the parsed sheet', () => {
  const rows = [{ Name: 'Asha', Mobile: '+91 98765 43210' }];
  const columns = ['Name', 'Mobile'];

  it('accepts the parse answer only with success and data', () => {
    expect(readParsedSheet({ success: true, data: { rows, columns, totalRows: 4, truncated: true } })).toEqual({
      rows,
      columns,
      totalRows: 4,
      truncated: true,
    });
    expect(readParsedSheet({ success: true, data: { rows: [], columns: [] } })).toEqual({ rows: [], columns: [], totalRows: 0, truncated: false });
    expect(() => readParsedSheet({ success: true })).toThrow(s.invalidResponseFormat);
    expect(() => readParsedSheet('<html>')).toThrow(s.invalidResponseFormat);
    expect(() => readParsedSheet({ success: false, error: 'Bad file' })).toThrow('Bad file');
  });
});

describe('files', () => {
  it('accepts .xlsx, .xls and .csv spreadsheets up to 10 MB', () => {
    expect(spreadsheetFileError({ name: 'List.XLSX', size: 1000 })).toBeNull();
    expect(spreadsheetFileError({ name: 'list.csv', size: 10 * MB })).toBeNull();
    expect(spreadsheetFileError({ name: 'list.pdf', size: 10 })).toBe(s.invalidFileTypeSpreadsheet);
    expect(spreadsheetFileError({ name: 'list.xls', size: 10 * MB + 1 })).toBe(s.recipientFileTooLarge);
    expect(importFileError({ name: 'numbers.txt', size: 10 })).toBe(s.importInvalidFileType);
    expect(importFileError({ name: 'numbers.csv', size: 11 * MB })).toBe(s.importFileTooLarge);
  });
});
