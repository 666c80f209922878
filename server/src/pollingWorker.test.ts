import { describe, expect, it } from 'vitest';
import { IdlePause } from './pollingWorker';

/** A pause far longer than any test: only a wake-up can end it. */
const FOREVER_MS = 3_600_000;

describe('IdlePause', () => {
  it('ends a pause under way when interrupted', async () => {
    const pause = new IdlePause(FOREVER_MS);
    const waited = pause.wait();
    pause.interrupt();
    await expect(waited).resolves.toBeUndefined();
  });

  it('keeps a wake-up that came while the worker was busy for its next pause, once', async () => {
    const pause = new IdlePause(FOREVER_MS);
    pause.interrupt();
    await pause.wait();
    let ended = false;
    const next = pause.wait().then(() => (ended = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(ended).toBe(false);
    pause.interrupt();
    await next;
    expect(ended).toBe(true);
  });

  it("ends every loop's pause under way when interrupted, not only the last to pause", async () => {
    const pause = new IdlePause(FOREVER_MS);
    const first = pause.wait();
    const second = pause.wait();
    pause.interrupt();
    await expect(Promise.all([first, second])).resolves.toEqual([undefined, undefined]);
  });

  it('ends on its own after its time', async () => {
    await expect(new IdlePause(1).wait()).resolves.toBeUndefined();
  });
});
