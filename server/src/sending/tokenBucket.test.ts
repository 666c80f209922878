import { describe, expect, it } from 'vitest';
import { TokenBucket } from './tokenBucket';

describe('TokenBucket', () => {
  it('lets a burst through, then spaces sends at the rate', () => {
    let now = 0;
    const bucket = new TokenBucket(100, 5, () => now);
    const waits = Array.from({ length: 10 }, () => bucket.reserve());
    expect(waits.slice(0, 5)).toEqual([0, 0, 0, 0, 0]);
    // Then one slot every 10 ms.
    expect(waits.slice(5).map((w) => Math.round(w))).toEqual([10, 20, 30, 40, 50]);
    now = 1000;
    expect(bucket.reserve()).toBe(0);
  });

  it('never exceeds the rate over a long run', () => {
    let now = 0;
    const bucket = new TokenBucket(1000, 200, () => now);
    let sent = 0;
    // Senders ask as fast as they can for 5 simulated seconds.
    while (now < 5000) {
      const wait = bucket.reserve();
      now += wait;
      sent += 1;
    }
    expect(sent).toBeLessThanOrEqual(5000 + 200);
    expect(sent).toBeGreaterThanOrEqual(5000 * 0.95);
  });

  it('pauses after a throttling answer', () => {
    const now = 0;
    const bucket = new TokenBucket(10, 1, () => now);
    bucket.pause(500);
    expect(bucket.reserve()).toBe(500);
  });
});
