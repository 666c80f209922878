import { describe, expect, it } from 'vitest';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { CoalescingCounter, type CounterStore, type CounterTotal } from './coalescingCounter';

/** A store whose writes the test answers by hand, recording what each one added. */
function heldStore(): { store: CounterStore; writes: { key: string; points: number; answer(error?: Error): void }[] } {
  const totals = new Map<string, number>();
  const writes: { key: string; points: number; answer(error?: Error): void }[] = [];
  const store: CounterStore = {
    consume: (key, points) =>
      new Promise<CounterTotal>((resolve, reject) => {
        writes.push({
          key,
          points,
          answer(error) {
            if (error) return reject(error);
            const total = (totals.get(key) ?? 0) + points;
            totals.set(key, total);
            resolve({ consumedPoints: total, msBeforeNext: 900_000 });
          },
        });
      }),
    reward: (key, points) => {
      totals.set(key, (totals.get(key) ?? 0) - points);
      return Promise.resolve();
    },
  };
  return { store, writes };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('CoalescingCounter', () => {
  it('counts the requests that come while a write is under way with one write, each with its own count', async () => {
    const { store, writes } = heldStore();
    const counter = new CoalescingCounter(store);
    const first = counter.count('key-1');
    const waiting = [counter.count('key-1'), counter.count('key-1'), counter.count('key-1')];
    expect(writes.map((w) => w.points)).toEqual([1]);
    writes[0]!.answer();
    expect((await first).consumedPoints).toBe(1);
    await flush();
    expect(writes.map((w) => w.points)).toEqual([1, 3]);
    writes[1]!.answer();
    expect((await Promise.all(waiting)).map((total) => total.consumedPoints)).toEqual([2, 3, 4]);
    // Nothing in flight: the next request writes at once.
    const later = counter.count('key-1');
    expect(writes.map((w) => w.points)).toEqual([1, 3, 1]);
    writes[2]!.answer();
    expect(await later).toEqual({ consumedPoints: 5, msBeforeNext: 900_000 });
  });

  it('writes each key on its own', async () => {
    const { store, writes } = heldStore();
    const counter = new CoalescingCounter(store);
    const a = counter.count('a');
    const b = counter.count('b');
    expect(writes.map((w) => `${w.key}:${w.points}`)).toEqual(['a:1', 'b:1']);
    writes[1]!.answer();
    writes[0]!.answer();
    expect([(await a).consumedPoints, (await b).consumedPoints]).toEqual([1, 1]);
  });

  it('fails only the requests a failed write counted', async () => {
    const { store, writes } = heldStore();
    const counter = new CoalescingCounter(store);
    const first = counter.count('k');
    const second = counter.count('k');
    writes[0]!.answer(new Error('store is down'));
    await expect(first).rejects.toThrow('store is down');
    await flush();
    writes[1]!.answer();
    expect((await second).consumedPoints).toBe(1);
  });

  it("gives rate-limiter-flexible's store the number of requests to add", async () => {
    const counter = new CoalescingCounter(new RateLimiterMemory({ points: 1_000, duration: 60 }));
    const totals = await Promise.all(Array.from({ length: 25 }, () => counter.count('ip')));
    expect(totals.map((total) => total.consumedPoints).sort((x, y) => x - y)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
  });

  it('gives a request back: the next one counted has the count it would have had without it', async () => {
    const counter = new CoalescingCounter(new RateLimiterMemory({ points: 1_000, duration: 60 }));
    expect((await counter.count('ip')).consumedPoints).toBe(1);
    expect((await counter.count('ip')).consumedPoints).toBe(2);
    await counter.refund('ip');
    expect((await counter.count('ip')).consumedPoints).toBe(2);
  });
});
