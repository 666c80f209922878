import { describe, expect, it } from 'vitest';
import { chunksAtOnceFor } from './stagedRows';

describe('chunksAtOnceFor', () => {
  it('runs the chunks asked for where the pool has room beside them', () => {
    expect(chunksAtOnceFor(2, 10)).toBe(2);
    expect(chunksAtOnceFor(2, 5)).toBe(2);
    expect(chunksAtOnceFor(2, undefined)).toBe(2);
  });

  it('keeps three connections of a small pool for requests and the other workers, and always runs one', () => {
    expect(chunksAtOnceFor(2, 4)).toBe(1);
    expect(chunksAtOnceFor(2, 2)).toBe(1);
    expect(chunksAtOnceFor(2, 1)).toBe(1);
    expect(chunksAtOnceFor(0, 10)).toBe(1);
  });
});
