import { describe, expect, it } from 'vitest';
import { gstinCheckCharacter, isValidGstin, normaliseGstin } from './gstin';

describe('GSTIN', () => {
  it('accepts published GSTINs, whose check characters match', () => {
    expect(isValidGstin('27AAPFU0939F1ZV')).toBe(true);
    expect(gstinCheckCharacter('27AAPFU0939F1Z')).toBe('V');
  });

  it('refuses a wrong check character, a wrong shape and lower case before normalising', () => {
    expect(isValidGstin('27AAPFU0939F1ZA')).toBe(false);
    expect(isValidGstin('27AAPFU0939F1Z')).toBe(false);
    expect(isValidGstin('2AAAPFU0939F1ZV')).toBe(false);
    expect(isValidGstin('27aapfu0939f1zv')).toBe(false);
    expect(isValidGstin(normaliseGstin(' 27aapfu 0939f1zv '))).toBe(true);
  });
});

describe('GSTIN state code', () => {
  it('refuses a GSTIN whose check character matches but whose state code does not exist', () => {
    const first14 = '99AAPFU0939F1Z';
    expect(isValidGstin(`${first14}${gstinCheckCharacter(first14)}`)).toBe(false);
    const telangana = '36AAPFU0939F1Z';
    expect(isValidGstin(`${telangana}${gstinCheckCharacter(telangana)}`)).toBe(true);
  });
});
