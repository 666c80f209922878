import { describe, expect, it } from 'vitest';
import { SendWindow } from './sendWindow';

/** A clock the test moves; the window reads it for each start and each halving. */
function manualClock() {
  let now = 0;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

/** Whether the acquire has resolved once pending work has run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('SendWindow', () => {
  it('lets the whole window send at once, and the next send waits for a place', async () => {
    const window = new SendWindow(3);
    const started = await Promise.all([window.acquire(), window.acquire(), window.acquire()]);
    const fourth = window.acquire();
    expect(await settled(fourth)).toBe(false);
    window.release(started[0] as number, 'answered');
    expect(await settled(fourth)).toBe(true);
  });

  it('halves once for a silent round: sends started before the halving do not halve it again', async () => {
    const clock = manualClock();
    const changes: number[] = [];
    const window = new SendWindow(8, (size) => changes.push(size), clock.now);
    const round = await Promise.all(Array.from({ length: 8 }, () => window.acquire()));
    clock.advance(15_000);
    for (const startedAt of round) window.release(startedAt, 'unanswered');
    expect(window.size).toBe(4);

    // The next round went out after the halving: its silence halves again, down to one send.
    for (const expected of [2, 1, 1]) {
      const next = await Promise.all(Array.from({ length: window.size }, () => window.acquire()));
      clock.advance(15_000);
      for (const startedAt of next) window.release(startedAt, 'unanswered');
      expect(window.size).toBe(expected);
    }
    expect(changes).toEqual([4, 2, 1]);
  });

  it('holds the sends beyond a closed window and lets them go one by one as answers open it', async () => {
    const clock = manualClock();
    const window = new SendWindow(4, undefined, clock.now);
    const silent = await Promise.all(Array.from({ length: 4 }, () => window.acquire()));
    clock.advance(1);
    window.release(silent[0] as number, 'unanswered');
    window.release(silent[1] as number, 'unanswered');
    expect(window.size).toBe(2);
    // Two still in flight fill the window of two: a new send waits for one of them to end.
    const second = window.acquire();
    expect(await settled(second)).toBe(false);
    window.release(silent[2] as number, 'not-sent');
    expect(window.size).toBe(2);
    expect(await settled(second)).toBe(true);
    const third = window.acquire();
    expect(await settled(third)).toBe(false);
    // An answer opens the window by one: the waiting send goes while two others are in flight.
    window.release(silent[3] as number, 'answered');
    expect(window.size).toBe(3);
    expect(await settled(third)).toBe(true);
    const fourth = window.acquire();
    expect(await settled(fourth)).toBe(true);
    const fifth = window.acquire();
    expect(await settled(fifth)).toBe(false);
  });

  it('opens by one for each answer up to its size, and says when it is fully open again', async () => {
    const clock = manualClock();
    const changes: number[] = [];
    const window = new SendWindow(4, (size) => changes.push(size), clock.now);
    const first = await window.acquire();
    clock.advance(1);
    window.release(first, 'unanswered');
    expect(window.size).toBe(2);
    for (let i = 0; i < 5; i++) window.release(await window.acquire(), 'answered');
    expect(window.size).toBe(4);
    expect(changes).toEqual([2, 4]);
  });

  it('holds back none of the sends when a few among many go unanswered', async () => {
    const clock = manualClock();
    const window = new SendWindow(64, undefined, clock.now);
    // Rounds of 16 sends, every fourth silent, as the faulty provider of the API tests: each round
    // halves the window once and its twelve answers open it by twelve, so it settles at 24.
    for (let round = 0; round < 50; round++) {
      const sends = Array.from({ length: 16 }, () => window.acquire());
      for (const send of sends) expect(await settled(send)).toBe(true);
      const started = await Promise.all(sends);
      clock.advance(10);
      started.forEach((startedAt, i) => window.release(startedAt, i % 4 === 3 ? 'unanswered' : 'answered'));
    }
    expect(window.size).toBeGreaterThanOrEqual(16);
  });
});
