import { describe, expect, it } from 'vitest';
import { checkPhone, formatPhone, normalisePhone, parseRecipientList, phoneDigits } from './phone';
import { ZForgotPasswordRequest } from './schemas/auth';
import { ZSignupPhone } from './schemas/common';

describe('normalisePhone', () => {
  it.each([
    ['919876543210', '919876543210'],
    ['+919876543210', '919876543210'],
    ['+91 98765-43210', '919876543210'],
    ['(022) 1234 5678', '912212345678'],
    ['9876520004', '919876520004'],
    ['98765 20004', '919876520004'],
    ['09876520004', '919876520004'],
    ['0091 98765 20004', '919876520004'],
    ['+91 0 98765 20004', '919876520004'],
    ['0044 20 7946 0018', '442079460018'],
    ['1234567890', '1234567890'],
    ['+1 (415) 555.0100', '14155550100'],
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
    ['0123456789', 'leading zero that is not a trunk prefix'],
    ['+0919876543210', 'plus then zero'],
    ['919876543210;919876543211', 'semicolon is not a separator'],
    ['919876543210/1', 'slash'],
    ['\u0669\u0661\u0669\u0668\u0667\u0666\u0665\u0664\u0663\u0662\u0661\u0660', 'non-ASCII digits'],
  ])('%j is invalid (%s)', (raw) => {
    expect(normalisePhone(raw)).toBeNull();
  });
});

describe('checkPhone', () => {
  it('says why a number is refused', () => {
    expect(checkPhone('  ')).toEqual({ ok: false, reason: 'empty' });
    expect(checkPhone('98765abc04')).toEqual({ ok: false, reason: 'characters' });
    expect(checkPhone('1234567')).toEqual({ ok: false, reason: 'too_short' });
    expect(checkPhone('1234567890123456')).toEqual({ ok: false, reason: 'too_long' });
    expect(checkPhone('0123456789')).toEqual({ ok: false, reason: 'leading_zero' });
  });

  it('marks numbers whose stored form differs from what was typed', () => {
    expect(checkPhone('9876520004')).toEqual({ ok: true, phone: '919876520004', changed: true });
    expect(checkPhone('+91 98765 20004')).toEqual({ ok: true, phone: '919876520004', changed: false });
  });

  it('formats Indian mobiles in the 5-5 grouping', () => {
    expect(formatPhone('919876520004')).toBe('+91 98765 20004');
    expect(formatPhone('14155550100')).toBe('+14155550100');
  });
});

describe('parseRecipientList', () => {
  it('splits on commas and every kind of line break, trims and skips empty entries', () => {
    const list = parseRecipientList('919876543210, 919876543211\n919876543212\r\n919876543213\r919876543214,,\n\n  ,');
    expect(list).toEqual({
      valid: ['919876543210', '919876543211', '919876543212', '919876543213', '919876543214'],
      invalid: [],
      invalidReasons: [],
      duplicates: 0,
      normalised: [],
      normalisedCount: 0,
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
    expect(list.invalidReasons).toEqual(['characters', 'too_short', 'characters']);
    expect(list.duplicates).toBe(0);
  });

  it('does not split on semicolons or tabs', () => {
    expect(parseRecipientList('919876543210;919876543211').invalid).toHaveLength(1);
    // A tab is whitespace inside one entry, so two numbers joined by a tab become one long invalid entry.
    expect(parseRecipientList('919876543210\t919876543211').invalid).toHaveLength(1);
  });

  it('returns empty lists for empty or blank text', () => {
    const empty = { valid: [], invalid: [], invalidReasons: [], duplicates: 0, normalised: [], normalisedCount: 0 };
    expect(parseRecipientList('')).toEqual(empty);
    expect(parseRecipientList(' \n\r\n , ')).toEqual(empty);
  });

  it('lists the numbers it read as Indian mobiles, and treats 10 digits and 91+10 digits as one number', () => {
    const list = parseRecipientList('9876520004\n919876520004\n+91 98765 20005');
    expect(list.valid).toEqual(['919876520004', '919876520005']);
    expect(list.duplicates).toBe(1);
    expect(list.normalised).toEqual([{ typed: '9876520004', phone: '919876520004' }]);
    expect(list.normalisedCount).toBe(1);
  });

  it('handles a large paste quickly', () => {
    const text = Array.from({ length: 50_000 }, (_, i) => `+91 ${9_000_000_000 + (i % 40_000)}`).join('\n');
    const list = parseRecipientList(text);
    expect(list.valid).toHaveLength(40_000);
    expect(list.duplicates).toBe(10_000);
  });
});

describe('phoneDigits', () => {
  it('drops spaces, dashes, brackets and one leading plus, and nothing else', () => {
    expect(phoneDigits('+91 98765-43210')).toBe('919876543210');
    expect(phoneDigits('(91) 98765 43210')).toBe('919876543210');
    expect(phoneDigits('0091 98765 43210')).toBe('00919876543210');
    expect(phoneDigits('91x98765')).toBe('91x98765');
  });
});

describe('signup and forgot-password phones', () => {
  it('read "+91 98765-43210" as 919876543210, as Quick Send does, and keep the 11 to 15 digit rule for signup', () => {
    for (const typed of ['+91 98765-43210', '(91) 98765 43210', '+919876543210']) {
      expect(ZSignupPhone.parse(typed)).toBe('919876543210');
      expect(ZForgotPasswordRequest.parse({ username: 'asha', phone: typed }).phone).toBe('919876543210');
      expect(normalisePhone(typed)).toBe('919876543210');
    }
    expect(ZSignupPhone.safeParse('98765 43210').success).toBe(false);
    expect(ZSignupPhone.safeParse('+0 98765 43210').success).toBe(false);
    expect(ZSignupPhone.parse('')).toBeUndefined();
  });
});
