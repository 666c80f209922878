import { describe, expect, it } from 'vitest';
import { formatIstTimeLabelled } from './istTime';
import { formatIstDateTime, formatReportCost, istDate, REPORT_EXPORT_COLUMNS, reportCells, reportExportCells, reportStatusLabel } from './reports';

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

  it('adds sent time, campaign, cost and message id after the six cells, with IST in the time headings', () => {
    expect(REPORT_EXPORT_COLUMNS).toEqual(['Template', 'Recipient', 'Status', 'Delivered At (IST)', 'Read At (IST)', 'Error', 'Sent At (IST)', 'Campaign', 'Cost (INR)', 'Message ID']);
    const row = { template: 't', recipient: '91', status: 'sent', deliveredAt: null, readAt: null, error: null, sentAt: null, campaign: 'Diwali', cost: 0.8, messageId: 'msg_9' };
    expect(reportExportCells(row)).toEqual(['t', '91', 'SENT', 'Not delivered', 'Not read', 'Success', 'Not sent', 'Diwali', '0.80', 'msg_9']);
  });

  it('writes costs with 2 to 4 decimals', () => {
    expect([0, 0.8, 0.785, 0.7851, 12].map(formatReportCost)).toEqual(['0.00', '0.80', '0.785', '0.7851', '12.00']);
  });

  it('labels on-screen times with their zone', () => {
    expect(formatIstTimeLabelled('2026-01-10T18:30:00.000Z')).toBe('11 Jan 2026, 12:00 am IST');
    expect(formatIstTimeLabelled(null)).toBe('—');
  });
});
