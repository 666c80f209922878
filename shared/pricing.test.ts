import { describe, expect, it } from 'vitest';
import { priceToUnits, unitsToPrice } from './pricing';

describe('price strings and credit units', () => {
  it.each([
    ['0.80', 8000],
    ['0.15', 1500],
    ['0.1234', 1234],
    ['1', 10000],
    ['12.5', 125000],
    ['0', 0],
  ])('%s is %i units', (price, units) => {
    expect(priceToUnits(price)).toBe(units);
  });

  it.each([
    [8000, '0.80'],
    [1500, '0.15'],
    [1234, '0.1234'],
    [1230, '0.123'],
    [10000, '1.00'],
    [0, '0.00'],
    [125000, '12.50'],
  ])('%i units show as %s', (units, price) => {
    expect(unitsToPrice(units)).toBe(price);
  });
});
