import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ActivityReporter, formatCountdown, inactivityPhase, warningLeadSeconds, INACTIVITY_LOGIN_PATH, isInactivityLogout, resendWaitSeconds } from './inactivity';

describe('warningLeadSeconds', () => {
  it('is two minutes for the default ten-minute timeout', () => {
    expect(warningLeadSeconds(600)).toBe(120);
  });

  it('is at most half of a short timeout', () => {
    expect(warningLeadSeconds(60)).toBe(30);
    expect(warningLeadSeconds(7)).toBe(3);
  });
});

describe('formatCountdown', () => {
  it('writes minutes and zero-padded seconds', () => {
    expect(formatCountdown(120)).toBe('2:00');
    expect(formatCountdown(65)).toBe('1:05');
    expect(formatCountdown(9)).toBe('0:09');
  });

  it('rounds partial seconds up and never goes negative', () => {
    expect(formatCountdown(0.2)).toBe('0:01');
    expect(formatCountdown(-3)).toBe('0:00');
  });
});

describe('inactivityPhase', () => {
  it('is active until eight minutes of a ten-minute timeout', () => {
    expect(inactivityPhase(0, 600)).toEqual({ phase: 'active' });
    expect(inactivityPhase(479_000, 600)).toEqual({ phase: 'active' });
  });

  it('warns with the seconds left during the last two minutes', () => {
    expect(inactivityPhase(480_000, 600)).toEqual({ phase: 'warning', remainingSeconds: 120 });
    expect(inactivityPhase(599_500, 600)).toEqual({ phase: 'warning', remainingSeconds: 1 });
  });

  it('expires at the timeout', () => {
    expect(inactivityPhase(600_000, 600)).toEqual({ phase: 'expired' });
    expect(inactivityPhase(900_000, 600)).toEqual({ phase: 'expired' });
  });
});

describe('ActivityReporter', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reports the first activity at once and folds a burst into one trailing report', () => {
    const send = vi.fn();
    const reporter = new ActivityReporter(send, 5_000);
    reporter.notify();
    expect(send).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 10; i++) {
      vi.advanceTimersByTime(300);
      reporter.notify();
    }
    expect(send).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(5_000);
    expect(send).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(60_000);
    expect(send).toHaveBeenCalledTimes(2);
  });

  it('keeps reporting every interval during continuous activity', () => {
    const send = vi.fn();
    const reporter = new ActivityReporter(send, 5_000);
    for (let i = 0; i < 200; i++) {
      reporter.notify();
      vi.advanceTimersByTime(100);
    }
    // Activity from 0 s to 20 s: reports at 0, 5, 10, 15 and 20 s.
    expect(send).toHaveBeenCalledTimes(5);
    reporter.dispose();
  });

  it('flushes immediately and cancels a pending report', () => {
    const send = vi.fn();
    const reporter = new ActivityReporter(send, 5_000);
    reporter.notify();
    vi.advanceTimersByTime(1_000);
    reporter.notify();
    reporter.flush();
    expect(send).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(10_000);
    expect(send).toHaveBeenCalledTimes(2);
  });
});

describe('inactivity logout notice', () => {
  it('is asked for by the login address the automatic logout uses', () => {
    expect(isInactivityLogout(new URL(INACTIVITY_LOGIN_PATH, 'http://app.test').search)).toBe(true);
    expect(isInactivityLogout('')).toBe(false);
    expect(isInactivityLogout('?reason=other')).toBe(false);
  });
});

describe('resendWaitSeconds', () => {
  it('counts whole seconds down to zero and never below', () => {
    expect(resendWaitSeconds(1_000, 1_000, 60)).toBe(60);
    expect(resendWaitSeconds(1_000, 1_500, 60)).toBe(60);
    expect(resendWaitSeconds(1_000, 60_000, 60)).toBe(1);
    expect(resendWaitSeconds(1_000, 61_000, 60)).toBe(0);
    expect(resendWaitSeconds(1_000, 120_000, 60)).toBe(0);
  });
});
