import { describe, expect, it } from 'vitest';
import { RepeatIndex, valuesDigest, valuesRecordDigest } from './repeatRows';

describe('valuesDigest', () => {
  it('tells values apart by their text and by where one value ends', () => {
    expect(valuesDigest(['Asha', 'ORD-1003'])).toBe(valuesDigest(['Asha', 'ORD-1003']));
    expect(valuesDigest(['Asha', 'ORD-1003'])).not.toBe(valuesDigest(['Asha', 'ORD-1004']));
    expect(valuesDigest(['ab', 'c'])).not.toBe(valuesDigest(['a', 'bc']));
    expect(valuesDigest([])).not.toBe(valuesDigest(['']));
  });

  it('gives a values object the digest of its keys and values in order', () => {
    expect(valuesRecordDigest({ '1': 'Asha', '2': 'ORD-1003' })).toBe(valuesDigest(['1', 'Asha', '2', 'ORD-1003']));
    expect(valuesRecordDigest({ '1': 'ORD-1003', '2': 'Asha' })).not.toBe(valuesRecordDigest({ '1': 'Asha', '2': 'ORD-1003' }));
  });
});

describe('RepeatIndex', () => {
  it('takes a row for a repeat only when its number and values were both seen, answering the first such row', () => {
    const index = new RepeatIndex();
    const order = (id: string) => valuesDigest(['Asha', id]);
    expect(index.repeatOf('919876543210', order('ORD-1003'), 1)).toBeNull();
    expect(index.repeatOf('919876543210', order('ORD-1004'), 2)).toBeNull();
    expect(index.repeatOf('919876543211', order('ORD-1003'), 3)).toBeNull();
    expect(index.repeatOf('919876543210', order('ORD-1003'), 4)).toBe(1);
    expect(index.repeatOf('919876543210', order('ORD-1004'), 5)).toBe(2);
    expect(index.repeatOf('919876543211', order('ORD-1003'), 6)).toBe(3);
  });

  it('holds many thousands of rows as it grows', () => {
    const index = new RepeatIndex();
    for (let row = 1; row <= 5_000; row += 1) expect(index.repeatOf(`91987654${String(row % 1_000).padStart(4, '0')}`, valuesDigest([String(row)]), row)).toBeNull();
    expect(index.repeatOf('919876540007', valuesDigest(['4007']), 9_999)).toBe(4_007);
  });
});
