import { describe, expect, it, vi } from 'vitest';
import { BatchPacer } from './service';

const noRest = async () => undefined;

describe('BatchPacer', () => {
  it('sizes SQLite batches to the time budget from the time a row took, halfway each batch, within bounds', async () => {
    const pacer = new BatchPacer({ maxRows: 2_000, firstRows: 250, budgetMs: 50, pause: noRest });
    expect(pacer.rows).toBe(250);
    // 250 rows in 100 ms: 125 would fit; halfway there.
    await pacer.rest(100);
    expect(pacer.rows).toBe(188);
    // 188 rows in 25 ms: 376 would fit.
    await pacer.rest(25);
    expect(pacer.rows).toBe(282);
    // On budget: stays.
    await pacer.rest(50);
    expect(pacer.rows).toBe(282);
    for (let i = 0; i < 30; i++) await pacer.rest(1);
    expect(pacer.rows).toBe(2_000);
    // One batch descheduled for a second costs half the size, not all of it.
    await pacer.rest(1_000);
    expect(pacer.rows).toBe(1_050);
    for (let i = 0; i < 30; i++) await pacer.rest(10_000);
    expect(pacer.rows).toBe(50);
  });

  it('keeps a fixed size without a budget (PostgreSQL), and rests as long as the batch took', async () => {
    vi.useFakeTimers();
    try {
      const pacer = new BatchPacer({ maxRows: 2_000, firstRows: 2_000, budgetMs: null });
      let rested = false;
      const resting = pacer.rest(30).then(() => {
        rested = true;
      });
      await vi.advanceTimersByTimeAsync(29);
      expect(rested).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await resting;
      expect(rested).toBe(true);
      expect(pacer.rows).toBe(2_000);
    } finally {
      vi.useRealTimers();
    }
  });
});
