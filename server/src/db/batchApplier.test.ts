import { describe, expect, it, vi } from 'vitest';
import type { Logger } from '../logger';
import { BatchApplier } from './batchApplier';

function fakeLogger(): { log: Logger; messages: string[] } {
  const messages: string[] = [];
  const record = vi.fn((_fields: unknown, message: string) => messages.push(message));
  return { log: { warn: record, error: record, debug: record, info: record } as unknown as Logger, messages };
}

/** A store of `waiting` rows that `applyOnce` takes `batchSize` at a time. */
function rowsOf(waiting: number, batchSize: number) {
  const state = { waiting, calls: 0 };
  const applyOnce = async () => {
    state.calls += 1;
    const taken = Math.min(batchSize, state.waiting);
    state.waiting -= taken;
    return taken;
  };
  return { state, applyOnce };
}

describe('BatchApplier', () => {
  it('drains batch after batch until one comes back short, started or not', async () => {
    const { state, applyOnce } = rowsOf(25, 10);
    const applier = new BatchApplier({ applyOnce, batchSize: 10, log: fakeLogger().log, what: 'test rows' });
    await applier.drain();
    expect(state.waiting).toBe(0);
    expect(state.calls).toBe(3);
  });

  it('applies what a store left soon after it while started; after stop only a drain applies', async () => {
    const { state, applyOnce } = rowsOf(0, 10);
    const applier = new BatchApplier({ applyOnce, batchSize: 10, log: fakeLogger().log, what: 'test rows', flushDelayMs: 1, sweepMs: 60_000 });
    applier.start();
    state.waiting = 15;
    applier.stored();
    const deadline = Date.now() + 10_000;
    while (state.waiting > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(state.waiting).toBe(0);
    await applier.stop();
    const calls = state.calls;
    state.waiting = 5;
    applier.stored();
    expect(state.calls).toBe(calls);
    await applier.drain();
    expect(state.waiting).toBe(0);
  });

  it('logs a failing batch once and carries on at the next flush', async () => {
    const { log, messages } = fakeLogger();
    let fail = true;
    const { state, applyOnce } = rowsOf(3, 10);
    const applier = new BatchApplier({ applyOnce: () => (fail ? Promise.reject(new Error('database away')) : applyOnce()), batchSize: 10, log, what: 'test rows' });
    await applier.drain();
    expect(state.waiting).toBe(3);
    expect(messages.some((m) => m.includes('test rows'))).toBe(true);
    fail = false;
    await applier.drain();
    expect(state.waiting).toBe(0);
  });
});
