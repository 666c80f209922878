/** What a counter store answers for one write: the key's total after it, and when its window ends. */
export interface CounterTotal {
  consumedPoints: number;
  msBeforeNext: number;
}

/** A rate-limiter-flexible limiter, as far as counting goes: `consume(key, n)` adds n to the key. */
export interface CounterStore {
  consume(key: string, points: number): Promise<CounterTotal>;
  reward(key: string, points: number): Promise<unknown>;
}

interface Waiter {
  resolve(total: CounterTotal): void;
  reject(error: unknown): void;
}

/**
 * Counts one request at a time against a shared store with at most one write in flight per key.
 * The requests that come for a key while its write is under way are counted together by the next
 * write, which adds their number at once; each is answered the total it would have had had the
 * writes been one per request, in the order the requests came. On PostgreSQL that is one upsert of
 * `rate_limits` per key per round trip instead of one per request (the public send API under load
 * wrote the same row once for every request, and waited on its lock). A failed write fails only
 * the requests it counted.
 */
export class CoalescingCounter {
  private readonly waitingByKey = new Map<string, Waiter[]>();

  constructor(private readonly store: CounterStore) {}

  count(key: string): Promise<CounterTotal> {
    return new Promise<CounterTotal>((resolve, reject) => {
      const waiting = this.waitingByKey.get(key);
      if (waiting) {
        waiting.push({ resolve, reject });
        return;
      }
      void this.write(key, [{ resolve, reject }]);
    });
  }

  /** Takes back one request counted for the key (a request counted where it did not belong). */
  async refund(key: string): Promise<void> {
    await this.store.reward(key, 1);
  }

  private async write(key: string, first: Waiter[]): Promise<void> {
    let batch = first;
    // The loop sets the key's waiting list before its first await, so no request starts a second write.
    for (;;) {
      // Requests from here on wait for the next write.
      const next: Waiter[] = [];
      this.waitingByKey.set(key, next);
      try {
        const total = await this.store.consume(key, batch.length);
        const before = total.consumedPoints - batch.length;
        batch.forEach((waiter, index) => waiter.resolve({ consumedPoints: before + index + 1, msBeforeNext: total.msBeforeNext }));
      } catch (error) {
        for (const waiter of batch) waiter.reject(error);
      }
      if (next.length === 0) break;
      batch = next;
    }
    this.waitingByKey.delete(key);
  }
}
