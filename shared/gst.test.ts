import { describe, expect, it } from 'vitest';
import { computeGst, financialYearOf, indianNumberInWords, paiseToRupeeString, rupeesInWords, taxDocumentNumber } from './gst';

describe('amount in words, Indian style', () => {
  it('groups by thousand, lakh and crore', () => {
    expect(indianNumberInWords(0)).toBe('Zero');
    expect(indianNumberInWords(15)).toBe('Fifteen');
    expect(indianNumberInWords(1180)).toBe('One Thousand One Hundred Eighty');
    expect(indianNumberInWords(100_000)).toBe('One Lakh');
    expect(indianNumberInWords(118_000)).toBe('One Lakh Eighteen Thousand');
    expect(indianNumberInWords(12_345_678)).toBe('One Crore Twenty Three Lakh Forty Five Thousand Six Hundred Seventy Eight');
    expect(indianNumberInWords(1_000_000_000)).toBe('One Hundred Crore');
    expect(indianNumberInWords(9_99_99_99_999)).toBe('Nine Hundred Ninety Nine Crore Ninety Nine Lakh Ninety Nine Thousand Nine Hundred Ninety Nine');
  });

  it('writes rupees and paise', () => {
    expect(rupeesInWords(118_000)).toBe('Indian Rupees One Thousand One Hundred Eighty Only');
    expect(rupeesInWords(84_746)).toBe('Indian Rupees Eight Hundred Forty Seven and Forty Six Paise Only');
    expect(rupeesInWords(5)).toBe('Indian Rupees Zero and Five Paise Only');
  });
});

describe('financial year numbering', () => {
  it('runs from April to March by the IST calendar day', () => {
    expect(financialYearOf('2026-03-31')).toEqual({ label: '2025-26', short: '2526' });
    expect(financialYearOf('2026-04-01')).toEqual({ label: '2026-27', short: '2627' });
    expect(financialYearOf('2026-12-07')).toEqual({ label: '2026-27', short: '2627' });
    expect(financialYearOf('2099-04-01')).toEqual({ label: '2099-00', short: '9900' });
  });

  it('numbers invoices and credit notes in their own series within 16 characters', () => {
    expect(taxDocumentNumber('SND', 'invoice', '2627', 1)).toBe('SND2627/00001');
    expect(taxDocumentNumber('ABCD', 'credit_note', '2627', 99_999)).toBe('ABCDCN2627/99999');
    expect(taxDocumentNumber('ABCD', 'invoice', '2627', 123_456)).toBe('ABCD2627/123456');
    expect(() => taxDocumentNumber('ABCD', 'credit_note', '2627', 100_000)).toThrow(/16 characters/);
  });
});

describe('GST to the paisa', () => {
  it('adds 18 % on top in exclusive mode, split in halves within a state', () => {
    expect(computeGst(100_000, { mode: 'exclusive', rateBasisPoints: 1800, intraState: true })).toEqual({ taxablePaise: 100_000, cgstPaise: 9000, sgstPaise: 9000, igstPaise: 0, totalPaise: 118_000 });
    expect(computeGst(100_000, { mode: 'exclusive', rateBasisPoints: 1800, intraState: false })).toEqual({ taxablePaise: 100_000, cgstPaise: 0, sgstPaise: 0, igstPaise: 18_000, totalPaise: 118_000 });
  });

  it('rounds each head to the nearest paisa, halves up', () => {
    // 9 % of 0.05 = 0.0045 rupees: 0.45 paise rounds to 0; 18 % = 0.9 paise rounds to 1.
    expect(computeGst(5, { mode: 'exclusive', rateBasisPoints: 1800, intraState: true })).toMatchObject({ cgstPaise: 0, sgstPaise: 0, totalPaise: 5 });
    expect(computeGst(5, { mode: 'exclusive', rateBasisPoints: 1800, intraState: false })).toMatchObject({ igstPaise: 1, totalPaise: 6 });
    // 9 % of 0.50 = 4.5 paise: half up to 5.
    expect(computeGst(50, { mode: 'exclusive', rateBasisPoints: 1800, intraState: true })).toMatchObject({ cgstPaise: 5, sgstPaise: 5, totalPaise: 60 });
  });

  it('takes the tax out of the amount paid in inclusive mode, the parts adding up to it exactly', () => {
    // 1,000 / 1.18 = 847.457...; 9 % of that = 76.27 each; taxable = 1,000 - 152.54 = 847.46.
    expect(computeGst(100_000, { mode: 'inclusive', rateBasisPoints: 1800, intraState: true })).toEqual({ taxablePaise: 84_746, cgstPaise: 7627, sgstPaise: 7627, igstPaise: 0, totalPaise: 100_000 });
    expect(computeGst(100_000, { mode: 'inclusive', rateBasisPoints: 1800, intraState: false })).toEqual({ taxablePaise: 84_746, cgstPaise: 0, sgstPaise: 0, igstPaise: 15_254, totalPaise: 100_000 });
    for (const paise of [100, 123_457, 10_000_000]) {
      const split = computeGst(paise, { mode: 'inclusive', rateBasisPoints: 1800, intraState: paise % 2 === 0 });
      expect(split.taxablePaise + split.cgstPaise + split.sgstPaise + split.igstPaise).toBe(paise);
    }
  });

  it('charges nothing when off', () => {
    expect(computeGst(100_000, { mode: 'off', rateBasisPoints: 1800, intraState: true })).toEqual({ taxablePaise: 100_000, cgstPaise: 0, sgstPaise: 0, igstPaise: 0, totalPaise: 100_000 });
  });

  it('writes paise as exact rupee strings', () => {
    expect(paiseToRupeeString(118_000)).toBe('1180.00');
    expect(paiseToRupeeString(7627)).toBe('76.27');
    expect(paiseToRupeeString(5)).toBe('0.05');
    expect(paiseToRupeeString(-250)).toBe('-2.50');
  });
});
