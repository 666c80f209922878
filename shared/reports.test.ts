import { describe, expect, it } from 'vitest';
import { formatIstDateTime, istDate, reportCells, reportStatusLabel } from './reports';

describe('report rows', () => {
  it('labels statuses as the table does', () => {
    expect(['sent', 'delivered', 'read', 'failed', 'duplicate', 'pending', 'queued', 'anything'].map(reportStatusLabel)).toEqual([
      'SENT',
      'DELIVERED',
      'READ',
      'FAILED',
      'Duplicate Blocked',
      'PENDING',
      'PENDING',
      'PENDING',
    ]);
  });

  it('fills empty dates and a missing error with the spec’s words', () => {
    expect(reportCells({ template: 't', recipient: '91', status: 'sent', deliveredAt: null, readAt: null, error: null })).toEqual(['t', '91', 'SENT', 'Not delivered', 'Not read', 'Success']);
  });

  it('writes instants as India Standard Time', () => {
    expect(formatIstDateTime('2026-01-10T18:30:00.000Z')).toBe('2026-01-11 00:00:00');
    expect(formatIstDateTime(new Date('2026-01-10T18:29:59.999Z'))).toBe('2026-01-10 23:59:59');
    expect(formatIstDateTime(null)).toBeNull();
    expect(istDate(new Date('2026-03-31T18:30:00.000Z'))).toBe('2026-04-01');
  });
});
