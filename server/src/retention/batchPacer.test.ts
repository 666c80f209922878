import { describe, expect, it, vi } from 'vitest';
import { BatchPacer } from './service';

const noRest = async () => undefined;

describe('BatchPacer', () => {
  it('sizes SQLite batches to the time budget: halves after a slow batch, grows after a quick one, within bounds', async () => {
    const pacer = new BatchPacer({ maxRows: 2_000, firstRows: 250, budgetMs: 40, pause: noRest });
    expect(pacer.rows).toBe(250);
    await pacer.rest(120);
    expect(pacer.rows).toBe(125);
    await pacer.rest(30);
    expect(pacer.rows).toBe(125);
    await pacer.rest(10);
    expect(pacer.rows).toBe(188);
    for (let i = 0; i < 20; i++) await pacer.rest(1);
    expect(pacer.rows).toBe(2_000);
    for (let i = 0; i < 20; i++) await pacer.rest(1_000);
    expect(pacer.rows).toBe(20);
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
