import { describe, expect, it } from 'vitest';
import { messages } from '@shared/messages';
import { MB } from './setup';
import { importFileError } from './spreadsheet';

const s = messages.sending;

describe('files', () => {
  it("takes .xlsx, .xls and .csv files up to 10 MB for Quick Send's import", () => {
    expect(importFileError({ name: 'List.XLSX', size: 1000 })).toBeNull();
    expect(importFileError({ name: 'list.csv', size: 10 * MB })).toBeNull();
    expect(importFileError({ name: 'numbers.txt', size: 10 })).toBe(s.importInvalidFileType);
    expect(importFileError({ name: 'numbers.csv', size: 11 * MB })).toBe(s.importFileTooLarge);
  });
});
