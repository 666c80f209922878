import { describe, expect, it } from 'vitest';
import { attributeNameOf, columnNames, guessMapping, invalidRowsCsv, mappingProblem, rowContact } from './contactImport';

describe('contact import mapping', () => {
  it('guesses the number, name and tags columns, and makes the rest attributes typed by their first value', () => {
    const names = columnNames(['Mobile No', 'Name', 'Tags', 'First Name', 'Orders', 'Joined', '']);
    expect(names.at(-1)).toBe('Column 7');
    const mapping = guessMapping(names, ['98765 43210', 'Asha', 'vip', 'Asha', '4', '2026-01-10', 'x'], new Map([['first_name', 'text']]));
    expect(mapping.columns).toEqual([
      { kind: 'phone' },
      { kind: 'name' },
      { kind: 'tags' },
      { kind: 'attribute', name: 'first_name', type: 'text' },
      { kind: 'attribute', name: 'orders', type: 'number' },
      { kind: 'attribute', name: 'joined', type: 'date' },
      { kind: 'attribute', name: 'column_7', type: 'text' },
    ]);
    expect(mappingProblem(mapping)).toBeNull();
    expect(mappingProblem({ columns: [{ kind: 'name' }], extraTags: [] })).toBe('phone');
    expect(mappingProblem({ columns: [{ kind: 'phone' }, { kind: 'attribute', name: '9x', type: 'text' }], extraTags: [] })).toBe('attribute');
    expect(attributeNameOf('2024 spend (₹)')).toBe('col_2024_spend');
  });

  it('turns a row into a contact, leaving empty cells out and adding the tags for everyone', () => {
    const mapping = guessMapping(['phone', 'name', 'tags', 'city'], ['', '', '', ''], new Map());
    mapping.extraTags = ['import'];
    expect(rowContact(['9876543210', 'Asha', 'vip; pune', ''], mapping)).toEqual({ phone: '9876543210', name: 'Asha', tags: ['import', 'vip', 'pune'] });
    expect(rowContact(['', 'No number'], mapping)).toBeNull();
  });

  it('writes the invalid rows with their line and reason, safe to open in a spreadsheet', () => {
    expect(invalidRowsCsv(['phone', 'name'], [{ line: 3, cells: ['12', '=cmd'], error: 'Too short' }])).toBe("Line,phone,name,Reason\r\n3,12,'=cmd,Too short\r\n");
  });
});
