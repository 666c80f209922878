import { describe, expect, it } from 'vitest';
import { isPasswordError, legacyCellText, legacyWorkbookRows } from './legacyXls';
import { isDateFormat } from './xlsx';
import { xlsOf, xlsWorkbook } from './legacyXlsFixtures';

describe('the shared .xls reader (server, desktop and web)', () => {
  it('reads the first sheet from bytes as text rows, by the exceljs rules, empty rows kept as empty arrays', () => {
    const bytes = xlsWorkbook([
      { name: 'First', rows: [['Phone', 'Name', 'Joined', 'Paid'], [919876543210, ' Zoë ', new Date(Date.UTC(2024, 4, 6)), true], [], [123456789012345, 'मुंबई', null, false]] },
      { name: 'Second', rows: [['Nope']] },
    ]);
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect([...legacyWorkbookRows(bytes)]).toEqual([
      ['Phone', 'Name', 'Joined', 'Paid'],
      ['919876543210', ' Zoë ', '2024-05-06', 'TRUE'],
      [],
      ['123456789012345', 'मुंबई', '', 'FALSE'],
    ]);
  });

  it('throws for bytes that are not a readable workbook', () => {
    const good = xlsOf([['Phone'], [919876543210]]);
    const broken = new Uint8Array(608);
    broken.set(good.subarray(0, 8));
    broken.fill(0xff, 8);
    expect(() => [...legacyWorkbookRows(broken)]).toThrow();
  });

  it('tells date formats from number formats as exceljs does', () => {
    expect(['yyyy-mm-dd', 'm/d/yy', 'dd/mm/yyyy hh:mm', 'h:mm AM/PM', '[$-409]mmmm d, yyyy'].map(isDateFormat)).toEqual([true, true, true, true, true]);
    expect(['General', '0.00', '#,##0', '"Rs" 0.00', '[Red]0.00'].map(isDateFormat)).toEqual([false, false, false, false, false]);
    expect(legacyCellText({ t: 'n', v: 45418.5, z: 'yyyy-mm-dd hh:mm' }, false)).toBe('2024-05-06 12:00');
    expect(legacyCellText({ t: 'n', v: 45418 - 1462, z: 'yyyy-mm-dd' }, true)).toBe('2024-05-06');
    expect(legacyCellText({ t: 'e', v: 7, w: '#DIV/0!' }, false)).toBe('#DIV/0!');
    expect(legacyCellText({ t: 'z' }, false)).toBe('');
    expect(legacyCellText(null, false)).toBe('');
  });

  it("tells SheetJS's password refusals from its other errors", () => {
    expect(isPasswordError(new Error('File is password-protected'))).toBe(true);
    expect(isPasswordError(new Error('ECMA-376 Encrypted file missing /EncryptionInfo'))).toBe(true);
    expect(isPasswordError(new Error('Unsupported ZIP encryption'))).toBe(false);
    expect(isPasswordError('File is password-protected')).toBe(false);
  });
});
