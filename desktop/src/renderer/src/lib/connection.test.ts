import { describe, expect, it } from 'vitest';
import { createConnectionMonitor, MAX_RETRY_MS, retryDelayMs, secondsUntil, type ConnectionMonitorDeps, type ConnectionStatus } from './connection';

/** A network, a server and a clock the test drives by hand. */
function fakeWorld() {
  let online = true;
  let now = 1_000_000;
  const networkListeners = new Set<() => void>();
  const timers = new Map<number, { at: number; callback: () => void }>();
  let nextTimer = 1;
  const healthAnswers: Array<(healthy: boolean) => void> = [];
  let healthChecks = 0;

  const deps: ConnectionMonitorDeps = {
    isOnline: () => online,
    onNetworkChange(listener) {
      networkListeners.add(listener);
      return () => networkListeners.delete(listener);
    },
    checkHealth() {
      healthChecks += 1;
      return new Promise<boolean>((resolve) => healthAnswers.push(resolve));
    },
    now: () => now,
    setTimer(callback, ms) {
      const id = nextTimer++;
      timers.set(id, { at: now + ms, callback });
      return id;
    },
    clearTimer: (handle) => void timers.delete(handle as number),
  };

  return {
    deps,
    /** Answers the oldest pending health check, then lets the monitor's promise callbacks run. */
    async answer(healthy: boolean) {
      const resolve = healthAnswers.shift();
      if (!resolve) throw new Error('no health check pending');
      resolve(healthy);
      await Promise.resolve();
      await Promise.resolve();
      await Promise.resolve();
    },
    pending: () => healthAnswers.length,
    checks: () => healthChecks,
    timers: () => [...timers.values()].map((timer) => timer.at - now),
    /** Moves the clock and fires the timers that are due. */
    advance(ms: number) {
      now += ms;
      for (const [id, timer] of [...timers]) {
        if (timer.at <= now) {
          timers.delete(id);
          timer.callback();
        }
      }
    },
    setOnline(value: boolean) {
      online = value;
      for (const listener of [...networkListeners]) listener();
    },
    listeners: () => networkListeners.size,
    now: () => now,
  };
}

describe('retryDelayMs', () => {
  it('doubles from 2 s and stops at 60 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 50].map(retryDelayMs)).toEqual([2_000, 4_000, 8_000, 16_000, 32_000, MAX_RETRY_MS, MAX_RETRY_MS, MAX_RETRY_MS]);
  });
});

describe('secondsUntil', () => {
  it('rounds up and never shows 0 while a retry lies ahead', () => {
    expect(secondsUntil(10_000, 6_000)).toBe(4);
    expect(secondsUntil(10_000, 9_100)).toBe(1);
    expect(secondsUntil(10_000, 12_000)).toBe(1);
  });
});

describe('connection monitor', () => {
  it('checks at start and stays online (no banner, no timer) when the server answers', async () => {
    const world = fakeWorld();
    const monitor = createConnectionMonitor(world.deps);
    const seen: ConnectionStatus[] = [];
    monitor.subscribe(() => seen.push(monitor.status()));
    expect(world.checks()).toBe(1);
    await world.answer(true);
    expect(monitor.status()).toEqual({ kind: 'online' });
    expect(world.timers()).toEqual([]);
    expect(seen).toEqual([]);
  });

  it('retries an unreachable server with a growing delay and hides once it answers', async () => {
    const world = fakeWorld();
    const monitor = createConnectionMonitor(world.deps);
    monitor.subscribe(() => undefined);
    await world.answer(false);
    expect(monitor.status()).toEqual({ kind: 'unreachable', attempt: 1, retryAt: world.now() + 2_000 });
    expect(world.timers()).toEqual([2_000]);

    world.advance(2_000);
    // While the retry runs, the banner says so rather than counting down.
    expect(monitor.status()).toEqual({ kind: 'unreachable', attempt: 1, retryAt: null });
    await world.answer(false);
    expect(world.timers()).toEqual([4_000]);
    world.advance(4_000);
    await world.answer(false);
    expect(world.timers()).toEqual([8_000]);
    expect(monitor.status()).toMatchObject({ kind: 'unreachable', attempt: 3 });

    world.advance(8_000);
    await world.answer(true);
    expect(monitor.status()).toEqual({ kind: 'online' });
    expect(world.timers()).toEqual([]);

    // A later outage starts again from the first delay.
    monitor.reportTrouble();
    await world.answer(false);
    expect(world.timers()).toEqual([2_000]);
  });

  it('shows offline while the browser has no network, without checking, and checks when it returns', async () => {
    const world = fakeWorld();
    const monitor = createConnectionMonitor(world.deps);
    monitor.subscribe(() => undefined);
    await world.answer(false);
    world.setOnline(false);
    expect(monitor.status()).toEqual({ kind: 'offline' });
    // The pending retry is dropped: nothing is tried while there is no network.
    expect(world.timers()).toEqual([]);
    await monitor.checkNow();
    expect(world.pending()).toBe(0);

    world.setOnline(true);
    expect(world.pending()).toBe(1);
    await world.answer(true);
    expect(monitor.status()).toEqual({ kind: 'online' });
  });

  it('"Retry now" checks at once instead of waiting, and calls made during a check share it', async () => {
    const world = fakeWorld();
    const monitor = createConnectionMonitor(world.deps);
    monitor.subscribe(() => undefined);
    await world.answer(false);
    const first = monitor.checkNow();
    const second = monitor.checkNow();
    monitor.reportTrouble();
    expect(world.pending()).toBe(1);
    expect(world.timers()).toEqual([]);
    await world.answer(true);
    await Promise.all([first, second]);
    expect(monitor.status()).toEqual({ kind: 'online' });
  });

  it('reports of failed requests check once while online and are ignored during an outage', async () => {
    const world = fakeWorld();
    const monitor = createConnectionMonitor(world.deps);
    monitor.subscribe(() => undefined);
    await world.answer(true);
    monitor.reportTrouble();
    monitor.reportTrouble();
    expect(world.checks()).toBe(2);
    await world.answer(false);
    monitor.reportTrouble();
    expect(world.checks()).toBe(2);
  });

  it('counts a failing health request as unreachable', async () => {
    const world = fakeWorld();
    const monitor = createConnectionMonitor({ ...world.deps, checkHealth: () => Promise.reject(new TypeError('Failed to fetch')) });
    monitor.subscribe(() => undefined);
    await monitor.checkNow();
    expect(monitor.status()).toMatchObject({ kind: 'unreachable', attempt: 1 });
  });

  it('stops listening and retrying when the last subscriber leaves', async () => {
    const world = fakeWorld();
    const monitor = createConnectionMonitor(world.deps);
    const unsubscribe = monitor.subscribe(() => undefined);
    await world.answer(false);
    expect(world.listeners()).toBe(1);
    unsubscribe();
    expect(world.listeners()).toBe(0);
    expect(world.timers()).toEqual([]);
  });
});
