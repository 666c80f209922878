import { describe, expect, it } from 'vitest';
import { describeCleanupSchedule, describePaymentsStatus } from './platformSettings';

describe('describeCleanupSchedule', () => {
  it('falls back to the specification: daily at 02:00 UTC', () => {
    expect(describeCleanupSchedule(undefined)).toBe('Daily at 02:00 UTC');
    expect(describeCleanupSchedule('  ')).toBe('Daily at 02:00 UTC');
  });

  it('reads a daily cron expression', () => {
    expect(describeCleanupSchedule('0 2 * * *')).toBe('Daily at 02:00 UTC');
    expect(describeCleanupSchedule('30 14 * * *')).toBe('Daily at 14:30 UTC');
  });

  it('reads a time of day, with or without UTC', () => {
    expect(describeCleanupSchedule('02:00')).toBe('Daily at 02:00 UTC');
    expect(describeCleanupSchedule('2:00 UTC')).toBe('Daily at 02:00 UTC');
  });

  it("shows the server's own words otherwise", () => {
    expect(describeCleanupSchedule('Daily at 02:00 UTC')).toBe('Daily at 02:00 UTC');
    expect(describeCleanupSchedule('every Sunday')).toBe('every Sunday');
  });
});

describe('describePaymentsStatus', () => {
  it('tells live keys, the sandbox and nothing configured apart', () => {
    expect(describePaymentsStatus({ enabled: true, sandbox: false }).label).toBe('Razorpay configured');
    expect(describePaymentsStatus({ enabled: true, sandbox: true }).label).toBe('Sandbox');
    expect(describePaymentsStatus({ enabled: false, sandbox: false }).label).toBe('Not configured');
    expect(describePaymentsStatus(undefined).label).toBe('Not configured');
  });
});
