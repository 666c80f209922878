import { describe, expect, it } from 'vitest';
import { LookupCache, SharedReads } from './lookupCache';

function counted<T>(answers: (() => Promise<T>)[]) {
  let calls = 0;
  return {
    load: () => (answers[Math.min(calls++, answers.length - 1)] as () => Promise<T>)(),
    calls: () => calls,
  };
}

describe('LookupCache', () => {
  it('shares a read under way and its answer for the lifetime, then reads again', async () => {
    let now = 1_000;
    const cache = new LookupCache({ ttlMs: 5_000, maxEntries: 10, now: () => now });
    const source = counted([async () => 'first', async () => 'second']);
    const [a, b] = await Promise.all([cache.get('k', source.load), cache.get('k', source.load)]);
    expect([a, b, source.calls()]).toEqual(['first', 'first', 1]);
    now += 4_999;
    expect(await cache.get('k', source.load)).toBe('first');
    now += 1;
    expect(await cache.get('k', source.load)).toBe('second');
    expect(source.calls()).toBe(2);
  });

  it('keeps neither a failed lookup nor one that found nothing', async () => {
    const cache = new LookupCache({ ttlMs: 5_000, maxEntries: 10, now: () => 0 });
    const failing = counted<string>([() => Promise.reject(new Error('template not found')), async () => 'found']);
    await expect(cache.get('f', failing.load)).rejects.toThrow('template not found');
    expect(await cache.get('f', failing.load)).toBe('found');
    const empty = counted<string | null>([async () => null, async () => 'created since']);
    expect(await cache.get('e', empty.load)).toBeNull();
    expect(await cache.get('e', empty.load)).toBe('created since');
    expect([failing.calls(), empty.calls()]).toEqual([2, 2]);
  });

  it("does not let an expired read's failure drop the newer answer of its key", async () => {
    let now = 0;
    let failOld: (error: Error) => void = () => undefined;
    const cache = new LookupCache({ ttlMs: 10, maxEntries: 10, now: () => now });
    const old = cache.get('k', () => new Promise<string>((_, reject) => (failOld = reject)));
    now = 10;
    expect(await cache.get('k', async () => 'new')).toBe('new');
    failOld(new Error('late failure'));
    await expect(old).rejects.toThrow('late failure');
    expect(await cache.get('k', async () => 'unused')).toBe('new');
  });

  it('forgets the key stored longest ago beyond its size', async () => {
    const cache = new LookupCache({ ttlMs: 5_000, maxEntries: 2, now: () => 0 });
    await cache.get('a', async () => 'a1');
    await cache.get('b', async () => 'b1');
    await cache.get('c', async () => 'c1');
    expect(await cache.get('a', async () => 'a2')).toBe('a2');
    expect(await cache.get('c', async () => 'c2')).toBe('c1');
  });
});

describe('SharedReads', () => {
  it('shares a read under way with whoever asks meanwhile, and reads afresh once it settled', async () => {
    const reads = new SharedReads();
    const source = counted([async () => 'first', async () => 'second']);
    const [a, b] = await Promise.all([reads.get('k', source.load), reads.get('k', source.load)]);
    expect([a, b, source.calls()]).toEqual(['first', 'first', 1]);
    expect(await reads.get('k', source.load)).toBe('second');
    expect(source.calls()).toBe(2);
  });

  it('keeps apart reads of different keys, and forgets a failed read', async () => {
    const reads = new SharedReads();
    const failing = counted<string>([() => Promise.reject(new Error('database gone')), async () => 'found']);
    const other = counted([async () => 'other']);
    const [failed, kept] = await Promise.allSettled([reads.get('f', failing.load), reads.get('o', other.load)]);
    expect(failed.status).toBe('rejected');
    expect(kept).toEqual({ status: 'fulfilled', value: 'other' });
    expect(await reads.get('f', failing.load)).toBe('found');
  });
});
