import { describe, expect, it } from 'vitest';
import { formatCreditAmount, formatCredits, formatCreditType, formatPhoneForDisplay, isCreditType } from './format';

describe('credit history formatting', () => {
  it('treats codes containing ADD as credits', () => {
    expect(isCreditType('CREDIT_ADD')).toBe(true);
    expect(isCreditType('admin_add')).toBe(true);
    expect(isCreditType('MESSAGE_DEBIT')).toBe(false);
  });

  it('signs amounts by type with two decimals', () => {
    expect(formatCreditAmount('CREDIT_ADD', 1000)).toBe('+1000.00');
    expect(formatCreditAmount('MESSAGE_DEBIT', -0.8)).toBe('-0.80');
    expect(formatCreditAmount('MESSAGE_DEBIT', 0.15)).toBe('-0.15');
  });

  it('title-cases the type and replaces underscores', () => {
    expect(formatCreditType('CREDIT_ADD')).toBe('Credit Add');
    expect(formatCreditType('bulk_message_debit')).toBe('Bulk Message Debit');
  });
});

describe('formatCredits', () => {
  it('groups the Indian way and falls back to 0', () => {
    expect(formatCredits(100000)).toBe('1,00,000');
    expect(formatCredits(1234567.5)).toBe('12,34,567.50');
    expect(formatCredits(undefined)).toBe('0');
    expect(formatCredits(Number.NaN)).toBe('0');
  });
});

describe('formatPhoneForDisplay', () => {
  it('adds +91 to a bare ten-digit number', () => {
    expect(formatPhoneForDisplay('9876543210')).toBe('+91 9876543210');
  });

  it('adds only the plus to a number that carries its country code', () => {
    expect(formatPhoneForDisplay('919876543210')).toBe('+919876543210');
  });

  it('keeps a number that already has a plus and answers null for none', () => {
    expect(formatPhoneForDisplay('+14155550100')).toBe('+14155550100');
    expect(formatPhoneForDisplay('')).toBeNull();
    expect(formatPhoneForDisplay(null)).toBeNull();
  });
});
