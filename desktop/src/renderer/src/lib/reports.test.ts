import { describe, expect, it } from 'vitest';
import { messages } from '@shared/messages';
import type { TCampaignCounts } from '@shared/schemas/sending';
import {
  campaignActions,
  campaignListParams,
  campaignListPollMs,
  CAMPAIGN_STATUS_OPTIONS,
  chartAxisDays,
  clearReportFilters,
  deliveredAtText,
  EMPTY_REPORT_FILTERS,
  errorCellText,
  exportFailureText,
  exportQueryParams,
  fallbackExportName,
  filenameFromDisposition,
  fillTimeline,
  formatChartDay,
  formatCount,
  formatFilterDate,
  formatRate,
  formatRecipient,
  formatReportTime,
  hasLiveCampaigns,
  hasReportFilters,
  pageLabel,
  readAtText,
  reportChips,
  reportsLoadError,
  reportsQueryParams,
  reportStatusLabel,
  reportStatusTone,
  reportsViewFromSearch,
  searchFromReportsView,
  timelineTotals,
  withoutReportFilter,
  withReportFilter,
  type ReportFilters,
} from './reports';


const filters = (overrides: Partial<ReportFilters> = {}): ReportFilters => ({ ...EMPTY_REPORT_FILTERS, ...overrides });

describe('the reports query', () => {
  it('leaves out unset values and "all" (spec 002 §7)', () => {
    expect(reportsQueryParams(filters(), 1)).toEqual({ page: 1, limit: 50 });
    expect(reportsQueryParams(filters({ template: 'all', status: 'all', recipientNumber: '   ' }), 3)).toEqual({ page: 3, limit: 50 });
  });

  it('sends every filter that is set, trimmed, with the recipient reduced to digits', () => {
    expect(
      reportsQueryParams(
        filters({ dateFrom: '2025-03-01', dateTo: '2025-03-31', recipientNumber: ' +91 98765-43210 ', template: ' diwali_offer ', status: 'failed' }),
        2,
      ),
    ).toEqual({
      page: 2,
      limit: 50,
      dateFrom: '2025-03-01',
      dateTo: '2025-03-31',
      recipientNumber: '919876543210',
      template: 'diwali_offer',
      status: 'failed',
    });
  });

  it('exports every matching row: the filters and the format, no paging', () => {
    expect(exportQueryParams(filters(), 'csv')).toEqual({ export: 'csv' });
    expect(exportQueryParams(filters({ status: 'read' }), 'excel')).toEqual({ status: 'read', export: 'excel' });
  });

  it('sends the member who sent as their user id, and leaves it out for everyone', () => {
    expect(reportsQueryParams(filters({ sentBy: '42' }), 1)).toEqual({ page: 1, limit: 50, sentBy: '42' });
    expect(exportQueryParams(filters({ sentBy: '42' }), 'csv')).toEqual({ sentBy: '42', export: 'csv' });
    expect(reportsQueryParams(filters({ sentBy: 'all' }), 1)).toEqual({ page: 1, limit: 50 });
  });

  it('knows when any filter is active', () => {
    expect(hasReportFilters(filters())).toBe(false);
    expect(hasReportFilters(filters({ recipientNumber: '+' }))).toBe(false);
    expect(hasReportFilters(filters({ template: 'welcome' }))).toBe(true);
  });
});

describe('the view in the address', () => {
  it('reads page and filters and drops what it cannot use', () => {
    expect(reportsViewFromSearch(new URLSearchParams('page=2&status=FAILED&dateFrom=2025-03-01&template=promo&recipientNumber=9198'))).toEqual({
      page: 2,
      filters: { dateFrom: '2025-03-01', dateTo: '', recipientNumber: '9198', template: 'promo', status: 'failed', sentBy: 'all' },
    });
    expect(reportsViewFromSearch(new URLSearchParams('page=0&status=lost&dateFrom=01/03/2025&dateTo=2025-3-1'))).toEqual({
      page: 1,
      filters: EMPTY_REPORT_FILTERS,
    });
  });

  it('keeps the sender in the address when it is a user id, and drops anything else', () => {
    expect(reportsViewFromSearch(new URLSearchParams('sentBy=42')).filters.sentBy).toBe('42');
    expect(reportsViewFromSearch(new URLSearchParams('sentBy=someone')).filters.sentBy).toBe('all');
    expect(reportsViewFromSearch(new URLSearchParams('sentBy=0')).filters.sentBy).toBe('all');
    expect(searchFromReportsView({ page: 1, filters: filters({ sentBy: '42' }) })).toEqual({ sentBy: '42' });
  });

  it('writes only what differs from the defaults, and reads back the same view', () => {
    expect(searchFromReportsView({ page: 1, filters: filters() })).toEqual({});
    const view = { page: 4, filters: filters({ status: 'duplicate', dateTo: '2025-04-30' }) };
    const search = searchFromReportsView(view);
    expect(search).toEqual({ dateTo: '2025-04-30', status: 'duplicate', page: '4' });
    expect(reportsViewFromSearch(new URLSearchParams(search))).toEqual(view);
  });

  it('goes back to page 1 when a filter changes, is removed or all are cleared (spec §4)', () => {
    const view = { page: 5, filters: filters({ status: 'read', template: 'promo' }) };
    expect(withReportFilter(view, 'recipientNumber', '9198')).toEqual({ page: 1, filters: { ...view.filters, recipientNumber: '9198' } });
    expect(withoutReportFilter(view, 'status')).toEqual({ page: 1, filters: { ...view.filters, status: 'all' } });
    expect(withoutReportFilter(view, 'template').filters.template).toBe('all');
    expect(clearReportFilters()).toEqual({ page: 1, filters: EMPTY_REPORT_FILTERS });
  });
});

describe('filter chips', () => {
  it('shows one chip per active filter, in the fields order, with readable values', () => {
    expect(reportChips(filters())).toEqual([]);
    expect(
      reportChips(filters({ status: 'duplicate', dateFrom: '2025-03-05', recipientNumber: '+91 98765', template: 'promo', dateTo: '2025-12-31' })),
    ).toEqual([
      { key: 'dateFrom', label: 'From: Mar 5, 2025' },
      { key: 'dateTo', label: 'To: Dec 31, 2025' },
      { key: 'recipientNumber', label: 'Recipient: 9198765' },
      { key: 'template', label: 'Template: promo' },
      { key: 'status', label: 'Status: Duplicate Blocked' },
    ]);
  });

  it('names the sender from the members when they are known, else by id', () => {
    expect(reportChips(filters({ sentBy: '42' }), new Map([['42', 'Asha Verma']]))).toEqual([{ key: 'sentBy', label: 'Sent by: Asha Verma' }]);
    expect(reportChips(filters({ sentBy: '42' }))).toEqual([{ key: 'sentBy', label: 'Sent by: #42' }]);
  });

  it('reads a filter date as the calendar day it names', () => {
    expect(formatFilterDate('2025-01-01')).toBe('Jan 1, 2025');
    expect(formatFilterDate('not a date')).toBe('not a date');
  });
});

describe('statuses and cells (spec 002 §4)', () => {
  it('labels known statuses in capitals, duplicates as Duplicate Blocked and anything else PENDING', () => {
    expect(reportStatusLabel('sent')).toBe('SENT');
    expect(reportStatusLabel('DELIVERED')).toBe('DELIVERED');
    expect(reportStatusLabel('read')).toBe('READ');
    expect(reportStatusLabel('failed')).toBe('FAILED');
    expect(reportStatusLabel('duplicate')).toBe('Duplicate Blocked');
    for (const other of ['queued', 'sending', 'pending', '', null, undefined]) expect(reportStatusLabel(other)).toBe('PENDING');
    expect(reportStatusTone('failed')).toBe('destructive');
    expect(reportStatusTone('queued')).toBe('outline');
  });

  it('says Not delivered, Not read and Success for empty cells', () => {
    expect(deliveredAtText(null)).toBe('Not delivered');
    expect(deliveredAtText('')).toBe('Not delivered');
    expect(readAtText(undefined)).toBe('Not read');
    expect(readAtText('garbage')).toBe('Not read');
    expect(errorCellText(null)).toBe('Success');
    expect(errorCellText('  ')).toBe('Success');
    expect(errorCellText('(#131026) Message undeliverable')).toBe('(#131026) Message undeliverable');
  });

  it('shows times in en-US short form (spec §9)', () => {
    // IST whatever zone the browser (or the test run) is in.
    const when = '2025-03-05T09:00:00.000Z';
    expect(formatReportTime(when)).toBe('5 Mar 2025, 2:30 pm IST');
    expect(deliveredAtText(when)).toBe('5 Mar 2025, 2:30 pm IST');
    expect(formatReportTime(null)).toBeNull();
  });

  it('puts the plus back on stored numbers', () => {
    expect(formatRecipient('919876543210')).toBe('+919876543210');
    expect(formatRecipient('+44 20')).toBe('+44 20');
  });

  it("pages as 'Page x of y', an empty result being page 1 of 1", () => {
    expect(pageLabel(2, 7)).toBe('Page 2 of 7');
    expect(pageLabel(1, 0)).toBe('Page 1 of 1');
    expect(pageLabel(9, 3)).toBe('Page 3 of 3');
  });
});

describe('failure texts (spec 002 §8)', () => {
  it('names the error or the status of a failed load, or the network', () => {
    expect(reportsLoadError({ status: 0 })).toBe('Failed to load reports - Network error');
    expect(reportsLoadError({ status: 500 })).toBe('Failed to load reports: 500');
    expect(reportsLoadError({ status: 400, serverMessage: 'Dates must look like 2025-01-31' })).toBe(
      'Failed to load reports: Dates must look like 2025-01-31',
    );
  });

  it("reads the server's details or message from a failed export, else the fallback", () => {
    expect(exportFailureText(JSON.stringify({ details: 'Too many rows to export' }))).toBe('Too many rows to export');
    expect(exportFailureText(JSON.stringify({ error: 'Bad input', details: [{ field: 'dateFrom', message: 'Dates must look like 2025-01-31' }] }))).toBe(
      'Dates must look like 2025-01-31',
    );
    expect(exportFailureText(JSON.stringify({ message: 'Export limit reached' }))).toBe('Export limit reached');
    expect(exportFailureText(JSON.stringify({ error: 'Unauthorized' }))).toBe('Unauthorized');
    expect(exportFailureText(JSON.stringify({ details: [] }))).toBe('Failed to export reports');
    expect(exportFailureText('<html>Bad gateway</html>')).toBe('Failed to export reports');
    expect(exportFailureText('')).toBe('Failed to export reports');
    expect(exportFailureText('null')).toBe('Failed to export reports');
    expect(messages.reports.emptyFile).toBe('Empty file received');
  });
});

describe('export file names', () => {
  it("reads the server's name from Content-Disposition", () => {
    expect(filenameFromDisposition('attachment; filename="whatsapp_reports_all_2025-03-05.csv"')).toBe('whatsapp_reports_all_2025-03-05.csv');
    expect(filenameFromDisposition('attachment; filename=whatsapp_reports_filtered_2025-03-05.xlsx')).toBe(
      'whatsapp_reports_filtered_2025-03-05.xlsx',
    );
    expect(filenameFromDisposition(`attachment; filename="fallback.csv"; filename*=UTF-8''r%C3%A9sum%C3%A9.csv`)).toBe('résumé.csv');
  });

  it('refuses paths and empty names', () => {
    expect(filenameFromDisposition('attachment; filename="../../etc/passwd"')).toBe('passwd');
    expect(filenameFromDisposition('attachment; filename=""')).toBeNull();
    expect(filenameFromDisposition('attachment')).toBeNull();
    expect(filenameFromDisposition(null)).toBeNull();
  });

  it("falls back to the server's naming with today's date", () => {
    // 23:59 IST on 5 March; the IST day names the file, as the server's does.
    const day = new Date('2025-03-05T18:29:00.000Z');
    expect(fallbackExportName('csv', false, day)).toBe('whatsapp_reports_all_2025-03-05.csv');
    expect(fallbackExportName('excel', true, day)).toBe('whatsapp_reports_filtered_2025-03-05.xlsx');
    expect(fallbackExportName('csv', false, new Date('2025-03-05T18:30:00.000Z'))).toBe('whatsapp_reports_all_2025-03-06.csv');
  });
});

describe('figures', () => {
  it('groups counts the Indian way and shows rates in percent', () => {
    expect(formatCount(1234567)).toBe('12,34,567');
    expect(formatCount(undefined)).toBe('0');
    expect(formatRate(92.46)).toBe('92.5%');
    expect(formatRate(100)).toBe('100%');
    expect(formatRate(0)).toBe('0%');
    expect(formatRate(Number.NaN)).toBe('0%');
  });
});

describe('campaigns', () => {
  const counts = (failed = 0): TCampaignCounts => ({ queued: 0, sending: 0, unknown: 0, sent: 0, delivered: 0, read: 0, failed, cancelled: 0, duplicate: 0, suppressed: 0 });

  it('offers pause, resume and cancel by state, and resend only for a finished campaign with failures', () => {
    expect(campaignActions({ status: 'running', counts: counts(2) })).toEqual({ pause: true, resume: false, cancel: true, reschedule: false, resendFailed: false });
    expect(campaignActions({ status: 'paused', counts: counts() })).toEqual({ pause: false, resume: true, cancel: true, reschedule: false, resendFailed: false });
    expect(campaignActions({ status: 'completed', counts: counts(1) })).toEqual({ pause: false, resume: false, cancel: false, reschedule: false, resendFailed: true });
    expect(campaignActions({ status: 'completed', counts: counts() })).toEqual({ pause: false, resume: false, cancel: false, reschedule: false, resendFailed: false });
    expect(campaignActions({ status: 'cancelled', counts: counts(3) }).resendFailed).toBe(true);
  });

  it('offers no resume to a campaign held for its template or its disconnected number, but a cancel', () => {
    expect(campaignActions({ status: 'paused', pauseReason: 'number_disconnected', counts: counts() })).toEqual({ pause: false, resume: false, cancel: true, reschedule: false, resendFailed: false });
    expect(campaignActions({ status: 'paused', pauseReason: 'template_paused', counts: counts() }).resume).toBe(false);
    // Paused with its stopped number: resuming it resumes the number.
    expect(campaignActions({ status: 'paused', pauseReason: 'sender_stopped', counts: counts() }).resume).toBe(true);
  });

  it('offers a scheduled campaign a new time or a cancel, never pause or resume', () => {
    expect(campaignActions({ status: 'scheduled', counts: counts() })).toEqual({ pause: false, resume: false, cancel: true, reschedule: true, resendFailed: false });
    // One that failed to start sent nothing: nothing to resend, cancel or re-time, whatever its counts say.
    expect(campaignActions({ status: 'failed', counts: counts(4) })).toEqual({ pause: false, resume: false, cancel: false, reschedule: false, resendFailed: false });
  });

  it('filters by every status, scheduled and failed included', () => {
    expect(CAMPAIGN_STATUS_OPTIONS.map((option) => option.value)).toEqual(['all', 'scheduled', 'running', 'paused', 'cancelled', 'completed', 'failed']);
    expect(CAMPAIGN_STATUS_OPTIONS.find((option) => option.value === 'scheduled')?.label).toBe('Scheduled');
    expect(CAMPAIGN_STATUS_OPTIONS.find((option) => option.value === 'failed')?.label).toBe('Failed to start');
    expect(campaignListParams({ page: 1, limit: 20, status: 'scheduled' })).toEqual({ page: 1, limit: 20, status: 'scheduled' });
  });

  it('re-reads the list while a campaign runs, and when a scheduled one falls due', () => {
    const now = Date.parse('2026-11-24T10:00:00.000Z');
    expect(campaignListPollMs([{ status: 'running' }], 3_000, now)).toBe(3_000);
    expect(campaignListPollMs([{ status: 'completed' }], 3_000, now)).toBe(false);
    expect(campaignListPollMs(undefined, 3_000, now)).toBe(false);
    // Due in 20 s: look then. Due in an hour: look each minute (its time may change elsewhere).
    expect(campaignListPollMs([{ status: 'scheduled', scheduledAt: '2026-11-24T10:00:20.000Z' }], 3_000, now)).toBe(20_000);
    expect(campaignListPollMs([{ status: 'scheduled', scheduledAt: '2026-11-24T16:30:00+05:30' }], 3_000, now)).toBe(60_000);
    // Past its time and not started yet: every few seconds until the server starts it.
    expect(campaignListPollMs([{ status: 'scheduled', scheduledAt: '2026-11-24T09:59:00.000Z' }], 3_000, now)).toBe(3_000);
    expect(campaignListPollMs([{ status: 'scheduled', scheduledAt: null }], 3_000, now)).toBe(3_000);
  });

  it("builds the list query without 'all', and polls only while a campaign runs", () => {
    expect(campaignListParams({ page: 1, limit: 20, status: 'all' })).toEqual({ page: 1, limit: 20 });
    expect(campaignListParams({ page: 2, limit: 20, status: 'paused' })).toEqual({ page: 2, limit: 20, status: 'paused' });
    expect(hasLiveCampaigns([{ status: 'completed' }, { status: 'running' }])).toBe(true);
    expect(hasLiveCampaigns([{ status: 'paused' }])).toBe(false);
    expect(hasLiveCampaigns(undefined)).toBe(false);
    // A cancel answers before the messages a worker holds are settled: it is followed until they are.
    const counts = { queued: 0, sending: 3 };
    expect(hasLiveCampaigns([{ status: 'cancelled', counts }])).toBe(true);
    expect(hasLiveCampaigns([{ status: 'cancelled', counts: { queued: 0, sending: 0 } }])).toBe(false);
  });
});

describe('the activity chart', () => {
  it('fills the days the server left out, ending today', () => {
    const now = new Date(Date.UTC(2025, 2, 5, 10));
    const filled = fillTimeline([{ date: '2025-03-03', sent: 5, delivered: 4, read: 2, failed: 1 }], 4, now);
    expect(filled.map((point) => point.date)).toEqual(['2025-03-02', '2025-03-03', '2025-03-04', '2025-03-05']);
    expect(filled[1]).toEqual({ date: '2025-03-03', sent: 5, delivered: 4, read: 2, failed: 1 });
    expect(filled[0]).toEqual({ date: '2025-03-02', sent: 0, delivered: 0, read: 0, failed: 0 });
    expect(timelineTotals(filled)).toEqual({ sent: 5, delivered: 4, read: 2, failed: 1 });
  });

  it("ends on the server's last day when it is ahead of this clock, across a month end", () => {
    const filled = fillTimeline([{ date: '2025-03-01', sent: 1, delivered: 0, read: 0, failed: 0 }], 3, new Date(Date.UTC(2025, 1, 28, 23)));
    expect(filled.map((point) => point.date)).toEqual(['2025-02-27', '2025-02-28', '2025-03-01']);
  });

  it('names evenly spaced days on the axis, always the latest', () => {
    const days = Array.from({ length: 30 }, (_, index) => `2025-03-${String(index + 1).padStart(2, '0')}`);
    expect(chartAxisDays(days)).toEqual(['2025-03-05', '2025-03-10', '2025-03-15', '2025-03-20', '2025-03-25', '2025-03-30']);
    expect(chartAxisDays(days.slice(0, 3))).toEqual(['2025-03-01', '2025-03-02', '2025-03-03']);
    expect(chartAxisDays([])).toEqual([]);
  });

  it('labels days on the axis', () => {
    expect(formatChartDay('2025-03-05')).toBe('Mar 5');
    expect(formatChartDay('soon')).toBe('soon');
  });
});
