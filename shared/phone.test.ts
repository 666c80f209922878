import { describe, expect, it } from 'vitest';
import { normalisePhone, parseRecipientList } from './phone';

describe('normalisePhone', () => {
  it.each([
    ['919876543210', '919876543210'],
    ['+919876543210', '919876543210'],
    ['+91 98765-43210', '919876543210'],
    ['(022) 1234 5678', '02212345678'],
    ['+1 (415) 555.0100', '14155550100'],
    ['0091 98765 43210', '00919876543210'],
    ['  919876543210  ', '919876543210'],
    ['91\u00a098765\u00a043210', '919876543210'],
    ['+91 98765\u201343210', '919876543210'],
    ['12345678', '12345678'],
    ['123456789012345', '123456789012345'],
  ])('%j -> %s', (raw, expected) => {
    expect(normalisePhone(raw)).toBe(expected);
  });

  it.each([
    ['', 'empty'],
    ['+', 'plus only'],
    ['1234567', 'seven digits'],
    ['1234567890123456', 'sixteen digits'],
    ['9198765abc10', 'letters'],
    ['++919876543210', 'two pluses'],
    ['91+9876543210', 'plus inside'],
    ['9.19876543210E+11', 'Excel scientific notation'],
    ['919876543210;919876543211', 'semicolon is not a separator'],
    ['919876543210/1', 'slash'],
    ['\u0669\u0661\u0669\u0668\u0667\u0666\u0665\u0664\u0663\u0662\u0661\u0660', 'non-ASCII digits'],
  ])('%j is invalid (%s)', (raw) => {
    expect(normalisePhone(raw)).toBeNull();
  });
});

describe('parseRecipientList', () => {
  it('splits on commas and every kind of line break, trims and skips empty entries', () => {
    const list = parseRecipientList('919876543210, 919876543211\n919876543212\r\n919876543213\r919876543214,,\n\n  ,');
    expect(list).toEqual({
      valid: ['919876543210', '919876543211', '919876543212', '919876543213', '919876543214'],
      invalid: [],
      duplicates: 0,
    });
  });

  it('de-duplicates after normalisation, keeping first-seen order', () => {
    const list = parseRecipientList('+91 98765 43210\n919876543299\n919876543210\n(91) 98765-43210\n919876543299');
    expect(list.valid).toEqual(['919876543210', '919876543299']);
    expect(list.duplicates).toBe(3);
  });

  it('lists invalid entries trimmed, each occurrence', () => {
    const list = parseRecipientList(' abc ,12345,919876543210,abc');
    expect(list.valid).toEqual(['919876543210']);
    expect(list.invalid).toEqual(['abc', '12345', 'abc']);
    expect(list.duplicates).toBe(0);
  });

  it('does not split on semicolons or tabs', () => {
    expect(parseRecipientList('919876543210;919876543211').invalid).toHaveLength(1);
    // A tab is whitespace inside one entry, so two numbers joined by a tab become one long invalid entry.
    expect(parseRecipientList('919876543210\t919876543211').invalid).toHaveLength(1);
  });

  it('returns empty lists for empty or blank text', () => {
    expect(parseRecipientList('')).toEqual({ valid: [], invalid: [], duplicates: 0 });
    expect(parseRecipientList(' \n\r\n , ')).toEqual({ valid: [], invalid: [], duplicates: 0 });
  });

  it('handles a large paste quickly', () => {
    const text = Array.from({ length: 50_000 }, (_, i) => `+91 ${9_000_000_000 + (i % 40_000)}`).join('\n');
    const list = parseRecipientList(text);
    expect(list.valid).toHaveLength(40_000);
    expect(list.duplicates).toBe(10_000);
  });
});
