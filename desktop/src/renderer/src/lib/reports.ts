/**
 * The rules of Manage Reports (spec 002 "Manage Reports", §4 Reports, §7, §8, §9) without React:
 * which query a filter state sends, the chips it shows, the labels of statuses and empty cells,
 * dates, paging, export file names and failure texts, campaign actions and the activity chart's days.
 */
import { fillMessage, messages } from '@shared/messages';
import { formatIstTimeLabelled, istDate } from '@shared/istTime';
import { formatIndianNumber } from '@shared/money';
import { REPORT_COLUMNS, reportStatusLabel as sharedStatusLabel } from '@shared/reports';
import { REPORT_STATUSES, REPORTS_PAGE_SIZE, type TReportStatus, type TTimelinePoint } from '@shared/schemas/reports';
import { CAMPAIGN_STATUSES, type TCampaign, type TCampaignStatus } from '@shared/schemas/sending';
import { isCampaignFinished } from './sending/campaign';
import type { FailedCall } from './sending/setup';

const r = messages.reportsScreen;
/** The words the table shares with the server's exports. */
const cells = messages.reports;

/** Template, Recipient, Status, Delivered At, Read At, Error: the table's and the exports' headings. */
export const REPORT_TABLE_COLUMNS = REPORT_COLUMNS;

// ---------------------------------------------------------------------------------------------
// Filters and the query they send

export interface ReportFilters {
  /** yyyy-mm-dd, or '' when unset. */
  dateFrom: string;
  dateTo: string;
  recipientNumber: string;
  /** A template name, or 'all'. */
  template: string;
  /** A report status, or 'all'. */
  status: string;
  /** The user id of the member who sent the campaigns, or 'all'. */
  sentBy: string;
}

export type ReportFilterKey = keyof ReportFilters;

export const EMPTY_REPORT_FILTERS: ReportFilters = { dateFrom: '', dateTo: '', recipientNumber: '', template: 'all', status: 'all', sentBy: 'all' };

/** The order chips appear in, which is also the order of the filter fields. */
export const REPORT_FILTER_KEYS: readonly ReportFilterKey[] = ['dateFrom', 'dateTo', 'recipientNumber', 'template', 'status', 'sentBy'];

const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

function isUnset(value: string): boolean {
  const trimmed = value.trim();
  return trimmed === '' || trimmed === 'all';
}

/**
 * Numbers are stored as digits with the country code (docs/decisions/2026-11-21-sending-rules.md), so what a person types
 * with a plus, spaces or dashes is reduced to its digits before it is matched.
 */
export function normaliseRecipientFilter(value: string): string {
  return value.replace(/[\s()+.-]/g, '');
}

/** The filter part of the query: unset values and 'all' are left out (spec §7). */
export function filterParams(filters: ReportFilters): Partial<Record<ReportFilterKey, string>> {
  const params: Partial<Record<ReportFilterKey, string>> = {};
  for (const key of REPORT_FILTER_KEYS) {
    const value = filters[key];
    if (isUnset(value)) continue;
    const sent = key === 'recipientNumber' ? normaliseRecipientFilter(value) : value.trim();
    if (sent !== '') params[key] = sent;
  }
  return params;
}

/** GET /api/whatsapp/reports for one page (spec §9: 50 a page). */
export function reportsQueryParams(filters: ReportFilters, page: number, limit: number = REPORTS_PAGE_SIZE): Record<string, string | number> {
  return { page, limit, ...filterParams(filters) };
}

export type ExportFormat = 'csv' | 'excel';

/** The same URL with `export`: every row that matches the filters, not one page of them. */
export function exportQueryParams(filters: ReportFilters, format: ExportFormat): Record<string, string> {
  return { ...filterParams(filters), export: format };
}

export function hasReportFilters(filters: ReportFilters): boolean {
  return Object.keys(filterParams(filters)).length > 0;
}

// ---------------------------------------------------------------------------------------------
// The screen's state in the address

export interface ReportsView {
  page: number;
  filters: ReportFilters;
}

/**
 * The page and filters live in the address (?status=failed&page=2) like the template list's, so a
 * reload or a link keeps them. Anything unreadable is dropped.
 */
export function reportsViewFromSearch(params: URLSearchParams): ReportsView {
  const page = Number(params.get('page'));
  const date = (key: string) => {
    const value = params.get(key) ?? '';
    return DATE_PATTERN.test(value) ? value : '';
  };
  const status = params.get('status')?.toLowerCase() ?? '';
  return {
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    filters: {
      dateFrom: date('dateFrom'),
      dateTo: date('dateTo'),
      recipientNumber: params.get('recipientNumber')?.trim() ?? '',
      template: params.get('template')?.trim() || 'all',
      status: (REPORT_STATUSES as readonly string[]).includes(status) ? status : 'all',
      sentBy: /^[1-9]\d*$/.test(params.get('sentBy') ?? '') ? (params.get('sentBy') ?? 'all') : 'all',
    },
  };
}

/** The address for a view; defaults are left out to keep it short. */
export function searchFromReportsView(view: ReportsView): Record<string, string> {
  const search: Record<string, string> = {};
  for (const key of REPORT_FILTER_KEYS) {
    const value = view.filters[key].trim();
    if (!isUnset(value)) search[key] = value;
  }
  if (view.page > 1) search.page = String(view.page);
  return search;
}

/** Changing any filter goes back to page 1 (spec §4). */
export function withReportFilter(view: ReportsView, key: ReportFilterKey, value: string): ReportsView {
  return { page: 1, filters: { ...view.filters, [key]: value } };
}

/** Removing a chip puts its filter back to "everything". */
export function withoutReportFilter(view: ReportsView, key: ReportFilterKey): ReportsView {
  return withReportFilter(view, key, EMPTY_REPORT_FILTERS[key]);
}

export function clearReportFilters(): ReportsView {
  return { page: 1, filters: { ...EMPTY_REPORT_FILTERS } };
}

export interface FilterChip {
  key: ReportFilterKey;
  label: string;
}

const CHIP_NAMES: Record<ReportFilterKey, string> = {
  dateFrom: 'From',
  dateTo: 'To',
  recipientNumber: 'Recipient',
  template: 'Template',
  status: 'Status',
  sentBy: 'Sent by',
};

/**
 * One removable chip per active filter (spec 002 "Manage Reports"), in the fields' order. The
 * sender is named from `senderNames` (user id to name) once the members have loaded.
 */
export function reportChips(filters: ReportFilters, senderNames: ReadonlyMap<string, string> = new Map()): FilterChip[] {
  const active = filterParams(filters);
  return REPORT_FILTER_KEYS.flatMap((key): FilterChip[] => {
    const value = active[key];
    if (value === undefined) return [];
    const shown =
      key === 'dateFrom' || key === 'dateTo'
        ? formatFilterDate(value)
        : key === 'status'
          ? reportStatusFilterLabel(value)
          : key === 'sentBy'
            ? (senderNames.get(value) ?? `#${value}`)
            : value;
    return [{ key, label: `${CHIP_NAMES[key]}: ${shown}` }];
  });
}

// ---------------------------------------------------------------------------------------------
// Statuses and cells

/** The status a row counts as: one of the known ones, anything else pending (spec §4). */
export function reportStatusKey(status: string | null | undefined): TReportStatus {
  const value = (status ?? '').trim().toLowerCase();
  return (REPORT_STATUSES as readonly string[]).includes(value) ? (value as TReportStatus) : 'pending';
}

/** The table's status text, as the exports write it: SENT ... FAILED, 'Duplicate Blocked', or PENDING (spec §4). */
export function reportStatusLabel(status: string | null | undefined): string {
  return sharedStatusLabel(reportStatusKey(status));
}

export type StatusTone = 'default' | 'secondary' | 'info' | 'warning' | 'destructive' | 'outline';

const STATUS_TONES: Record<TReportStatus, StatusTone> = {
  sent: 'secondary',
  delivered: 'default',
  read: 'info',
  failed: 'destructive',
  cancelled: 'outline',
  duplicate: 'warning',
  pending: 'outline',
};

export function reportStatusTone(status: string | null | undefined): StatusTone {
  return STATUS_TONES[reportStatusKey(status)];
}

const STATUS_FILTER_LABELS: Record<TReportStatus, string> = {
  sent: 'Sent',
  delivered: 'Delivered',
  read: 'Read',
  failed: 'Failed',
  cancelled: 'Cancelled',
  duplicate: cells.statuses.duplicate,
  pending: 'Pending',
};

export function reportStatusFilterLabel(status: string): string {
  return STATUS_FILTER_LABELS[reportStatusKey(status)];
}

/** The Status filter's options, 'all' first. */
export const REPORT_STATUS_OPTIONS: ReadonlyArray<{ value: string; label: string }> = [
  { value: 'all', label: 'All statuses' },
  ...REPORT_STATUSES.map((status) => ({ value: status, label: STATUS_FILTER_LABELS[status] })),
];

const shortDate = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

function readDate(value: string | null | undefined): Date | null {
  if (!value?.trim()) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * A report time in IST, saying so ("5 Mar 2025, 8:00 pm IST"), whatever the browser's zone: the
 * screens and the exports use one zone. Null when there is none.
 */
export function formatReportTime(value: string | null | undefined): string | null {
  const date = readDate(value);
  return date ? formatIstTimeLabelled(date) : null;
}

/** A filter's yyyy-mm-dd as the calendar day it names ("Mar 5, 2025"), whatever the time zone. */
export function formatFilterDate(value: string): string {
  if (!DATE_PATTERN.test(value)) return value;
  const [year, month, day] = value.split('-').map(Number) as [number, number, number];
  return shortDate.format(new Date(year, month - 1, day));
}

export function deliveredAtText(value: string | null | undefined): string {
  return formatReportTime(value) ?? cells.notDelivered;
}

export function readAtText(value: string | null | undefined): string {
  return formatReportTime(value) ?? cells.notRead;
}

/** The Error column: the provider's error, or 'Success' when there is none (spec §4). */
export function errorCellText(value: string | null | undefined): string {
  return value?.trim() ? value.trim() : cells.noError;
}

/** Stored numbers are digits with the country code; they are shown with their plus. */
export function formatRecipient(value: string): string {
  const digits = value.trim();
  return /^\d+$/.test(digits) ? `+${digits}` : digits;
}

/** 'Page x of y'; an empty result is still page 1 of 1. */
export function pageLabel(page: number, totalPages: number): string {
  const pages = Math.max(1, Math.floor(totalPages) || 1);
  return fillMessage(r.pageOf, { page: Math.min(Math.max(1, page), pages), pages });
}

// ---------------------------------------------------------------------------------------------
// Failures and exports

/** Spec §8: 'Failed to load reports: {error or status}', or the network text when nothing answered. */
export function reportsLoadError(error: FailedCall): string {
  if (error.status === 0) return r.loadFailedNetwork;
  return fillMessage(r.loadFailed, { error: error.serverMessage ?? String(error.status) });
}

function detailsText(details: unknown): string | null {
  if (typeof details === 'string' && details.trim()) return details.trim();
  if (Array.isArray(details)) {
    const parts = details
      .map((item: unknown) => (typeof item === 'string' ? item : typeof item === 'object' && item && 'message' in item ? (item as { message: unknown }).message : null))
      .filter((part): part is string => typeof part === 'string' && part.trim() !== '');
    if (parts.length > 0) return parts.join('; ');
  }
  return null;
}

/**
 * Spec §8 "Export": the server's details or message, otherwise 'Failed to export reports'. A
 * failed export answers JSON although a file was asked for, so the body arrives as text.
 */
export function exportFailureText(body: string | null | undefined): string {
  if (!body?.trim()) return cells.exportFailed;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return cells.exportFailed;
  }
  if (typeof parsed !== 'object' || parsed === null) return cells.exportFailed;
  const record = parsed as Record<string, unknown>;
  const details = detailsText(record.details);
  if (details) return details;
  for (const key of ['message', 'error'] as const) {
    const value = record[key];
    if (typeof value === 'string' && value.trim()) return value.trim();
  }
  return cells.exportFailed;
}

/** The name in a Content-Disposition header (RFC 6266 `filename*` first), without any path. */
export function filenameFromDisposition(header: string | null | undefined): string | null {
  if (!header) return null;
  let name: string | null = null;
  const extended = /filename\*\s*=\s*(?:[\w-]+)?'[^']*'([^;]+)/i.exec(header);
  if (extended?.[1]) {
    try {
      name = decodeURIComponent(extended[1].trim().replace(/^"|"$/g, ''));
    } catch {
      name = null;
    }
  }
  if (!name) {
    const plain = /filename\s*=\s*("((?:[^"\\]|\\.)*)"|[^;]+)/i.exec(header);
    if (plain) name = plain[2] !== undefined ? plain[2].replace(/\\(.)/g, '$1') : (plain[1] ?? '').trim();
  }
  const base = name?.split(/[\\/]/).pop()?.trim() ?? '';
  return base && base !== '.' && base !== '..' ? base : null;
}

/** The server's naming (spec §7), used when its header cannot be read. */
export function fallbackExportName(format: ExportFormat, filtered: boolean, now: Date): string {
  return `whatsapp_reports_${filtered ? 'filtered' : 'all'}_${istDate(now)}.${format === 'csv' ? 'csv' : 'xlsx'}`;
}

// ---------------------------------------------------------------------------------------------
// Summary figures

/** Counts with Indian grouping ("1,00,000"). */
export function formatCount(value: number | null | undefined): string {
  return formatIndianNumber(typeof value === 'number' && Number.isFinite(value) ? value : 0);
}

/** A rate the server gives in percent (0 to 100) as "92.5%"; whole numbers lose the ".0". */
export function formatRate(percent: number | null | undefined): string {
  const value = typeof percent === 'number' && Number.isFinite(percent) ? Math.min(100, Math.max(0, percent)) : 0;
  const rounded = Math.round(value * 10) / 10;
  return `${formatIndianNumber(rounded, Number.isInteger(rounded) ? 0 : 1)}%`;
}

// ---------------------------------------------------------------------------------------------
// Campaigns

export type CampaignAction = 'pause' | 'resume' | 'cancel';

export interface CampaignActions {
  pause: boolean;
  resume: boolean;
  cancel: boolean;
  /** A scheduled campaign that has not started can be given a new time. */
  reschedule: boolean;
  resendFailed: boolean;
}

/**
 * What the server allows in each state: a running campaign can be paused, a paused one resumed,
 * either cancelled; a scheduled one re-timed or cancelled (never paused); failed messages are
 * resent once the campaign is over (the resend is a new campaign, so the old one's counts stay
 * what they were). A scheduled send that failed to start sent nothing, so there is nothing to resend.
 */
export function campaignActions(campaign: Pick<TCampaign, 'status' | 'counts' | 'resentCampaignId' | 'pauseReason'>): CampaignActions {
  const { status } = campaign;
  return {
    pause: status === 'running',
    // Held for its template (Meta's reinstatement resumes it) or for its disconnected number (the
    // server refuses): only a connected number can send the rest, so resume is not offered.
    resume: status === 'paused' && campaign.pauseReason !== 'template_paused' && campaign.pauseReason !== 'number_disconnected',
    cancel: status === 'running' || status === 'paused' || status === 'scheduled',
    reschedule: status === 'scheduled',
    // Once resent, the card says so instead of offering the same failures again.
    resendFailed: status !== 'failed' && isCampaignFinished(status) && campaign.counts.failed > 0 && (campaign.resentCampaignId ?? null) === null,
  };
}

/** The campaigns view's status filter, 'all' first. */
export const CAMPAIGN_STATUS_OPTIONS: ReadonlyArray<{ value: 'all' | TCampaignStatus; label: string }> = [
  { value: 'all', label: 'All campaigns' },
  ...CAMPAIGN_STATUSES.map((status) => ({
    value: status,
    label: { scheduled: 'Scheduled', running: 'Running', paused: 'Paused', cancelled: 'Cancelled', completed: 'Completed', failed: 'Failed to start' }[status],
  })),
];

export function campaignListParams(query: { page: number; status: string; limit: number }): Record<string, string | number> {
  return { page: query.page, limit: query.limit, ...(isUnset(query.status) ? {} : { status: query.status }) };
}

/**
 * Whether a campaign is still changing: running, or cancelled with messages a worker had already
 * claimed (they are sent or refunded moments after the cancel answered).
 */
export function isCampaignLive(campaign: Pick<TCampaign, 'status'> & { counts?: Pick<TCampaign['counts'], 'queued' | 'sending'> }): boolean {
  if (campaign.status === 'running') return true;
  return campaign.status === 'cancelled' && campaign.counts !== undefined && campaign.counts.queued + campaign.counts.sending > 0;
}

export function hasLiveCampaigns(campaigns: readonly (Pick<TCampaign, 'status'> & { counts?: Pick<TCampaign['counts'], 'queued' | 'sending'> })[] | undefined): boolean {
  return (campaigns ?? []).some(isCampaignLive);
}

/** The longest wait before the list looks again for a scheduled campaign that should have started. */
export const SCHEDULED_POLL_MAX_MS = 60_000;

/**
 * How long until the campaign list is re-read: `liveMs` while one of them changes by itself; for a
 * scheduled one, until its time comes (at least `liveMs`, at most a minute, so that a changed
 * time or a start is seen); never otherwise.
 */
export function campaignListPollMs(
  campaigns: readonly (Pick<TCampaign, 'status'> & Partial<Pick<TCampaign, 'scheduledAt'>> & { counts?: Pick<TCampaign['counts'], 'queued' | 'sending'> })[] | undefined,
  liveMs: number,
  now: number = Date.now(),
): number | false {
  const list = campaigns ?? [];
  if (list.some(isCampaignLive)) return liveMs;
  const due = list
    .filter((campaign) => campaign.status === 'scheduled')
    .map((campaign) => Date.parse(campaign.scheduledAt ?? ''))
    .map((time) => (Number.isFinite(time) ? time - now : 0));
  if (due.length === 0) return false;
  return Math.min(SCHEDULED_POLL_MAX_MS, Math.max(liveMs, Math.min(...due)));
}

// ---------------------------------------------------------------------------------------------
// The activity chart

export const TIMELINE_SERIES = ['sent', 'delivered', 'read', 'failed'] as const;
export type TimelineSeries = (typeof TIMELINE_SERIES)[number];

function utcDay(value: string): number | null {
  if (!DATE_PATTERN.test(value)) return null;
  const [year, month, day] = value.split('-').map(Number) as [number, number, number];
  return Date.UTC(year, month - 1, day);
}

const DAY_MS = 86_400_000;

function dayString(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * `days` consecutive days ending today (or at the latest day the server sent, if later), with the
 * days the server left out counted as zero, so that the chart's x axis is even.
 */
export function fillTimeline(points: readonly TTimelinePoint[], days: number, now: Date): TTimelinePoint[] {
  const byDay = new Map<string, TTimelinePoint>();
  let last = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  for (const point of points) {
    const day = utcDay(point.date.slice(0, 10));
    if (day === null) continue;
    byDay.set(dayString(day), point);
    last = Math.max(last, day);
  }
  const count = Math.max(1, Math.floor(days));
  return Array.from({ length: count }, (_, index) => {
    const date = dayString(last - (count - 1 - index) * DAY_MS);
    const found = byDay.get(date);
    return {
      date,
      sent: found?.sent ?? 0,
      delivered: found?.delivered ?? 0,
      read: found?.read ?? 0,
      failed: found?.failed ?? 0,
    };
  });
}

export function timelineTotals(points: readonly TTimelinePoint[]): Record<TimelineSeries, number> {
  const totals: Record<TimelineSeries, number> = { sent: 0, delivered: 0, read: 0, failed: 0 };
  for (const point of points) for (const series of TIMELINE_SERIES) totals[series] += point[series];
  return totals;
}

/**
 * The days the chart's x axis names: about `target` of them, evenly spaced and counted back from the
 * last, so that the latest day always has its label.
 */
export function chartAxisDays(dates: readonly string[], target = 6): string[] {
  const step = Math.max(1, Math.ceil(dates.length / Math.max(1, target)));
  const last = dates.length - 1;
  return dates.filter((_, index) => (last - index) % step === 0);
}

const axisDay = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** A chart day ("2025-03-05") as "Mar 5". */
export function formatChartDay(value: string): string {
  const day = utcDay(value);
  return day === null ? value : axisDay.format(new Date(day));
}
