import { describe, expect, it } from 'vitest';
import { messages } from '@shared/messages';
import {
  formatAmountForDisplay,
  formatAmountForEditing,
  formatAmountLabel,
  initialAmountFromQuery,
  isPresetAmount,
  parseTopUpAmount,
} from './topupAmount';

const w = messages.wallet;

describe('parseTopUpAmount', () => {
  it('treats an empty field as no amount and no error', () => {
    expect(parseTopUpAmount('')).toEqual({ amount: null, error: null });
    expect(parseTopUpAmount('  , ')).toEqual({ amount: null, error: null });
  });

  it('strips commas and spaces before reading the number', () => {
    expect(parseTopUpAmount('1,00,000')).toEqual({ amount: 100000, error: null });
    expect(parseTopUpAmount(' 2 500 ')).toEqual({ amount: 2500, error: null });
    expect(parseTopUpAmount('1')).toEqual({ amount: 1, error: null });
  });

  it('uses the spec texts for amounts out of bounds', () => {
    expect(parseTopUpAmount('0')).toEqual({ amount: null, error: 'Amount must be at least ₹1' });
    expect(parseTopUpAmount('-5')).toEqual({ amount: null, error: 'Amount must be at least ₹1' });
    expect(parseTopUpAmount('100001')).toEqual({ amount: null, error: 'Amount cannot exceed ₹1,00,000' });
    expect(parseTopUpAmount('1,00,001')).toEqual({ amount: null, error: 'Amount cannot exceed ₹1,00,000' });
  });

  it('refuses fractions and words with the shared whole-number message', () => {
    expect(parseTopUpAmount('10.5')).toEqual({ amount: null, error: w.amountWhole });
    expect(parseTopUpAmount('ten')).toEqual({ amount: null, error: w.amountWhole });
  });
});

describe('field formatting', () => {
  it('groups digits the Indian way when the field loses focus', () => {
    expect(formatAmountForDisplay('100000')).toBe('1,00,000');
    expect(formatAmountForDisplay('25000')).toBe('25,000');
    expect(formatAmountForDisplay('1000,0')).toBe('10,000');
    expect(formatAmountForDisplay('')).toBe('');
  });

  it('leaves text that is not a whole number as typed', () => {
    expect(formatAmountForDisplay('12.5')).toBe('12.5');
    expect(formatAmountForDisplay('abc')).toBe('abc');
    expect(formatAmountForDisplay('99999999999999999999')).toBe('99999999999999999999');
  });

  it('shows raw digits while the field has focus', () => {
    expect(formatAmountForEditing('1,00,000')).toBe('100000');
    expect(formatAmountForEditing('2 500')).toBe('2500');
  });

  it('labels amounts with the rupee sign and Indian grouping', () => {
    expect(formatAmountLabel(1)).toBe('₹1');
    expect(formatAmountLabel(1000)).toBe('₹1,000');
    expect(formatAmountLabel(100000)).toBe('₹1,00,000');
  });
});

describe('initialAmountFromQuery', () => {
  it('accepts a whole amount within bounds', () => {
    expect(initialAmountFromQuery('500')).toBe(500);
    expect(initialAmountFromQuery('1')).toBe(1);
    expect(initialAmountFromQuery('100000')).toBe(100000);
  });

  it('ignores anything else', () => {
    expect(initialAmountFromQuery(null)).toBeNull();
    expect(initialAmountFromQuery(undefined)).toBeNull();
    expect(initialAmountFromQuery('')).toBeNull();
    expect(initialAmountFromQuery('0')).toBeNull();
    expect(initialAmountFromQuery('100001')).toBeNull();
    expect(initialAmountFromQuery('12.5')).toBeNull();
    expect(initialAmountFromQuery('lots')).toBeNull();
  });
});

describe('isPresetAmount', () => {
  it('knows the spec presets 1, 1000, 5000 and 10000', () => {
    expect([1, 1000, 5000, 10000].every(isPresetAmount)).toBe(true);
    expect(isPresetAmount(500)).toBe(false);
  });
});
