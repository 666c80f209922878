import { describe, expect, it, vi } from 'vitest';
import type { Logger } from '../logger';
import { isConnectionLoss, OutageLog } from './outage';

function fakeLogger(): { log: Logger; calls: { level: string; message: string }[] } {
  const calls: { level: string; message: string }[] = [];
  const record = (level: string) => vi.fn((_fields: unknown, message: string) => calls.push({ level, message }));
  const log = { warn: record('warn'), error: record('error'), debug: record('debug'), info: record('info') } as unknown as Logger;
  return { log, calls };
}

describe('isConnectionLoss', () => {
  it('recognises a terminated backend, a reset socket and a wrapped driver error', () => {
    expect(isConnectionLoss(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).toBe(true);
    expect(isConnectionLoss(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }))).toBe(true);
    expect(isConnectionLoss(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isConnectionLoss({ message: 'wrapped', nativeError: { code: '08006' } })).toBe(true);
  });

  it('does not take a wrong statement for a lost connection', () => {
    expect(isConnectionLoss(Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' }))).toBe(false);
    expect(isConnectionLoss('nothing')).toBe(false);
  });
});

describe('OutageLog', () => {
  it('logs the first failure of an outage once, backs off doubling up to its cap, and says when it works again', () => {
    const { log, calls } = fakeLogger();
    const outage = new OutageLog(log, 'the test loop', { firstMs: 100, maxMs: 400 });
    const lost = Object.assign(new Error('terminating connection'), { code: '57P01' });
    expect([1, 2, 3, 4].map(() => outage.failed(lost))).toEqual([100, 200, 400, 400]);
    expect(calls.filter((call) => call.level !== 'debug')).toEqual([{ level: 'warn', message: expect.stringContaining('connection was lost') as string }]);
    outage.recovered();
    outage.recovered();
    expect(calls.filter((call) => call.message.includes('works again'))).toHaveLength(1);
    expect(outage.failed(new Error('a bug'))).toBe(100);
    expect(calls.at(-1)?.level).toBe('error');
  });

  it('holds an interval loop back until its pause has passed', async () => {
    let now = 0;
    const outage = new OutageLog(fakeLogger().log, 'the interval loop', { firstMs: 1_000, maxMs: 1_000 }, () => now);
    const turn = vi.fn(() => Promise.reject(new Error('down')));
    await outage.tick(turn);
    await outage.tick(turn);
    expect(turn).toHaveBeenCalledTimes(1);
    now = 1_000;
    await outage.tick(() => Promise.resolve());
    expect(outage.failing).toBe(false);
  });

  it('starts a new outage, logged again, after a quiet spell (failures reported as events)', () => {
    let now = 0;
    const { log, calls } = fakeLogger();
    const outage = new OutageLog(log, 'pg-boss', { quietMs: 60_000 }, () => now);
    outage.failed(new Error('one'));
    now = 1_000;
    outage.failed(new Error('two'));
    now = 100_000;
    outage.failed(new Error('three'));
    expect(calls.filter((call) => call.level === 'error')).toHaveLength(2);
  });
});
