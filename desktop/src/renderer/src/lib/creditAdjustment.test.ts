import { describe, expect, it } from 'vitest';
import { ADMIN_QUICK_AMOUNTS, parseAdjustmentAmount, previewAdjustment } from './creditAdjustment';

describe('parseAdjustmentAmount', () => {
  it('reads positive amounts with up to 2 decimals', () => {
    expect(parseAdjustmentAmount('500')).toBe(500);
    expect(parseAdjustmentAmount(' 12.5 ')).toBe(12.5);
    expect(parseAdjustmentAmount('0.01')).toBe(0.01);
    expect(parseAdjustmentAmount('1,00,000.75')).toBe(100000.75);
  });

  it('refuses zero, negatives, blanks, words and more than 2 decimals', () => {
    for (const input of ['', '   ', '0', '0.00', '-5', 'abc', '1e3', '12.345', '.5', '5.']) {
      expect(parseAdjustmentAmount(input)).toBeNull();
    }
  });
});

describe('previewAdjustment', () => {
  it('adds to the balance', () => {
    expect(previewAdjustment(1000, 'add', 500)).toEqual({ newBalance: 1500, moved: 500, floored: false });
  });

  it('deducts from the balance', () => {
    expect(previewAdjustment(1000, 'deduct', 250.5)).toEqual({ newBalance: 749.5, moved: 250.5, floored: false });
  });

  it('floors a deduction at 0 and reports what actually moves', () => {
    expect(previewAdjustment(120.4, 'deduct', 5000)).toEqual({ newBalance: 0, moved: 120.4, floored: true });
  });

  it('deducting exactly the balance is not cut short', () => {
    expect(previewAdjustment(99.99, 'deduct', 99.99)).toEqual({ newBalance: 0, moved: 99.99, floored: false });
  });

  it('rounds to 2 decimals without float drift', () => {
    expect(previewAdjustment(0.1, 'add', 0.2).newBalance).toBe(0.3);
    expect(previewAdjustment(1234.56, 'add', 0.01).newBalance).toBe(1234.57);
    expect(previewAdjustment(1.1, 'deduct', 0.7).newBalance).toBe(0.4);
  });

  it('offers the quick amounts of the specification', () => {
    expect(ADMIN_QUICK_AMOUNTS).toEqual([10, 50, 100, 500, 1000, 5000]);
  });
});
