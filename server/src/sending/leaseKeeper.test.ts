import { afterEach, describe, expect, it, vi } from 'vitest';
import { LeaseKeeper, type LeasedBatch } from './leaseKeeper';

/** A renewal the test answers when it chooses, as a database with a queue of waiting statements would. */
function controlledRenewals() {
  const calls: { batches: readonly LeasedBatch[]; leaseUntil: Date; answer: () => void }[] = [];
  const renew = (batches: readonly LeasedBatch[], leaseUntil: Date) =>
    new Promise<void>((resolve) => {
      calls.push({ batches, leaseUntil, answer: resolve });
    });
  return { calls, renew };
}

describe('LeaseKeeper', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('has one renewal out at a time, however many ticks pass while the database is slow', async () => {
    vi.useFakeTimers();
    const { calls, renew } = controlledRenewals();
    const keeper = new LeaseKeeper(renew, 6, () => undefined);
    const release = keeper.keep([{ claimToken: 'a', ids: [1, 2] }]);
    expect(keeper.intervalMs()).toBe(2_000);
    // Five ticks with the first renewal still waiting: the old per-batch timers sent five statements.
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls).toHaveLength(1);
    calls[0]?.answer();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(calls).toHaveLength(2);
    release();
  });

  it('renews every batch kept in one call, and stops renewing a batch once it is released', async () => {
    const { calls, renew } = controlledRenewals();
    let now = 1_000_000;
    const keeper = new LeaseKeeper(renew, 60, () => undefined, () => now);
    const first = { claimToken: 'a', ids: [1, 2] };
    const second = { claimToken: 'b', ids: [3] };
    const releaseFirst = keeper.keep([first]);
    const releaseSecond = keeper.keep([second]);
    const renewal = keeper.renewNow();
    expect(calls[0]?.batches).toEqual([first, second]);
    expect(calls[0]?.leaseUntil.getTime()).toBe(now + 60_000);
    calls[0]?.answer();
    await renewal;

    releaseFirst();
    now += 20_000;
    const next = keeper.renewNow();
    expect(calls[1]?.batches).toEqual([second]);
    calls[1]?.answer();
    await next;
    releaseSecond();
    expect(keeper.size).toBe(0);
    await keeper.renewNow();
    expect(calls).toHaveLength(2);
  });

  it('reports a failed renewal and renews again at the next tick', async () => {
    const errors: unknown[] = [];
    let attempts = 0;
    const keeper = new LeaseKeeper(
      async () => {
        attempts += 1;
        if (attempts === 1) throw new Error('connection lost');
      },
      60,
      (error) => errors.push(error),
    );
    const release = keeper.keep([{ claimToken: 'a', ids: [1] }]);
    await keeper.renewNow();
    await keeper.renewNow();
    expect(attempts).toBe(2);
    expect(errors).toHaveLength(1);
    release();
  });
});
