import { describe, expect, it } from 'vitest';
import { parameterRule } from './parameterLimits';
import { cellText, dateText, normaliseMappings, numberText, rowMessage, unmappedVariable } from './sheetRows';

describe('cell text', () => {
  it('writes numbers without exponents', () => {
    expect(numberText(919876543210)).toBe('919876543210');
    expect(numberText(123456789012345)).toBe('123456789012345');
    expect(numberText(1e21)).toBe('1000000000000000000000');
    expect(numberText(12.5)).toBe('12.5');
    expect(numberText(0.0000001)).toBe('0.0000001');
    expect(numberText(-3)).toBe('-3');
  });

  it('writes a date as the sheet shows it: the day alone, or with its time of day', () => {
    expect(dateText(new Date(Date.UTC(2024, 4, 6)))).toBe('2024-05-06');
    expect(dateText(new Date(Date.UTC(2024, 4, 6, 9, 5)))).toBe('2024-05-06 09:05');
    expect(dateText(new Date(Date.UTC(2024, 4, 6, 23, 59, 7)))).toBe('2024-05-06 23:59:07');
    expect(dateText(new Date(Number.NaN))).toBe('');
  });

  it('trims text and gives empty cells as empty', () => {
    expect(cellText('  Asha  ')).toBe('Asha');
    expect(cellText('')).toBe('');
    expect(cellText(null)).toBe('');
    expect(cellText(undefined)).toBe('');
    expect(cellText(9876543210)).toBe('9876543210');
    expect(cellText(true)).toBe('true');
    expect(cellText(new Date(Date.UTC(2025, 0, 31)))).toBe('2025-01-31');
    expect(cellText({ a: 1 })).toBe('{"a":1}');
    expect(cellText(() => 1)).toBe('');
  });
});

describe('mappings', () => {
  it('takes variable names with or without braces and drops variables mapped to no column', () => {
    expect(normaliseMappings({ '{{1}}': 'Name', '{{ 2 }}': 'Order', city: 'City', '3': '' })).toEqual({ 1: 'Name', 2: 'Order', city: 'City' });
  });

  it('names the first variable without a column', () => {
    expect(unmappedVariable(['1', '2'], { 1: 'Name' })).toBe('2');
    expect(unmappedVariable(['1', '2'], { 1: 'Name', 2: '' })).toBe('2');
    expect(unmappedVariable(['1'], { 1: 'Name' })).toBeNull();
    expect(unmappedVariable([], {})).toBeNull();
  });
});

describe('a row as a message', () => {
  const variables = ['1', '2'];
  const mappings = { 1: 'Name', 2: 'Due' };

  it('reads the recipient and each mapped value with the cell rule', () => {
    expect(rowMessage({ Phone: 9876543210, Name: ' Asha ', Due: new Date(Date.UTC(2025, 2, 1)) }, 'Phone', variables, mappings)).toEqual({
      raw: '9876543210',
      values: { 1: 'Asha', 2: '2025-03-01' },
      missing: null,
      refused: null,
    });
  });

  it('names the first variable left empty, or mapped to no column, with its column', () => {
    expect(rowMessage({ Phone: '9876543210', Name: '  ', Due: 'x' }, 'Phone', variables, mappings).missing).toEqual({ name: '1', column: 'Name' });
    expect(rowMessage({ Phone: '9876543210', Name: 'Asha' }, 'Phone', variables, { 1: 'Name' })).toEqual({
      raw: '9876543210',
      values: { 1: 'Asha' },
      missing: { name: '2', column: '' },
      refused: null,
    });
  });

  it('reads only the row’s own cells, never its prototype’s', () => {
    const row = JSON.parse('{"Phone":"9876543210","__proto__":"Pune"}') as Record<string, unknown>;
    expect(rowMessage(row, 'Phone', ['1', '2'], { 1: 'constructor', 2: '__proto__' })).toEqual({
      raw: '9876543210',
      values: { 1: '', 2: 'Pune' },
      missing: { name: '1', column: 'constructor' },
      refused: null,
    });
  });

  it("refuses a row whose value WhatsApp would refuse, naming the variable, its column and why", () => {
    const rule = parameterRule([
      { type: 'HEADER', format: 'TEXT', text: 'Hello {{1}}' },
      { type: 'BODY', text: 'Hi {{1}}, your bill is {{2}}' },
    ]);
    const keys = ['header_1', '1', '2'];
    const columns = { header_1: 'Name', 1: 'Name', 2: 'Due' };
    expect(rowMessage({ Phone: '9876543210', Name: 'Asha', Due: '₹500' }, 'Phone', keys, columns, rule).refused).toBeNull();
    const long = rowMessage({ Phone: '9876543210', Name: 'A'.repeat(61), Due: '₹500' }, 'Phone', keys, columns, rule);
    expect(long.refused).toEqual({ key: 'header_1', label: 'Header {{1}}', reason: 'too_long', length: 61, limit: 60, column: 'Name' });
    expect(rowMessage({ Phone: '9876543210', Name: 'Asha', Due: 'line one\nline two' }, 'Phone', keys, columns, rule).refused).toMatchObject({ key: '2', reason: 'control_character', column: 'Due' });
    // A row missing a value says so first: one reason per row.
    expect(rowMessage({ Phone: '9876543210', Name: 'A'.repeat(61) }, 'Phone', keys, columns, rule)).toMatchObject({ missing: { name: '2', column: 'Due' }, refused: null });
  });
});
