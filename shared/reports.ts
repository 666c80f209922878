/**
 * How a report row reads (spec 002 §4 "Reports"): the status labels, the words for empty cells
 * and the delivery and read rates. Isomorphic, so that the Manage Reports table and the server's
 * CSV and Excel exports say exactly the same thing.
 */
import { messages } from './messages';

/** India Standard Time has no daylight saving: a fixed +05:30 (the product's time zone). */
export const IST_OFFSET_MS = 330 * 60_000;

const labels = messages.reports.statuses;

/** The Status column: duplicate reads 'Duplicate Blocked', unknown 'Awaiting confirmation', anything else not final PENDING. */
export function reportStatusLabel(status: string): string {
  switch (status) {
    case 'sent':
      return labels.sent;
    case 'delivered':
      return labels.delivered;
    case 'read':
      return labels.read;
    case 'failed':
      return labels.failed;
    case 'cancelled':
      return labels.cancelled;
    case 'duplicate':
      return labels.duplicate;
    // Sent without an answer: the provider has not confirmed it yet (issue 12).
    case 'unknown':
      return labels.unknown;
    default:
      return labels.pending;
  }
}

/** Column headings of the table and of both exports, in order. */
export const REPORT_COLUMNS: readonly string[] = [
  messages.reports.columns.template,
  messages.reports.columns.recipient,
  messages.reports.columns.status,
  messages.reports.columns.deliveredAt,
  messages.reports.columns.readAt,
  messages.reports.columns.error,
];

/** What one exported or displayed row needs. Times are already formatted by the caller. */
export interface ReportCellSource {
  template: string;
  recipient: string;
  status: string;
  deliveredAt: string | null;
  readAt: string | null;
  error: string | null;
}

/** The six cells of a row, with the spec's words for empty dates and for no error. */
export function reportCells(row: ReportCellSource): [string, string, string, string, string, string] {
  return [
    row.template,
    row.recipient,
    reportStatusLabel(row.status),
    row.deliveredAt ?? messages.reports.notDelivered,
    row.readAt ?? messages.reports.notRead,
    row.error ?? messages.reports.noError,
  ];
}

/**
 * An instant as IST wall-clock time, `2025-01-31 14:05:09`: what the exports write (a form
 * spreadsheets read as a date). Accepts an ISO string or a Date; null stays null.
 */
export function formatIstDateTime(value: string | Date | null): string | null {
  if (value === null) return null;
  const ms = typeof value === 'string' ? Date.parse(value) : value.getTime();
  if (Number.isNaN(ms)) return null;
  const iso = new Date(ms + IST_OFFSET_MS).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}

/** Today's date in IST, `2025-01-31` (export file names). */
export function istDate(now: Date = new Date()): string {
  return new Date(now.getTime() + IST_OFFSET_MS).toISOString().slice(0, 10);
}
