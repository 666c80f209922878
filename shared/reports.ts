/**
 * How a report row reads (spec 002 §4 "Reports"): the status labels, the words for empty cells
 * and the delivery and read rates. Isomorphic, so that the Manage Reports table and the server's
 * CSV and Excel exports say exactly the same thing.
 */
import { messages } from './messages';

/** India Standard Time (the product's one zone) lives in ./istTime; re-exported for existing callers. */
export { IST_OFFSET_MS } from './istTime';

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
    // Sent without an answer: the provider has not confirmed it yet.
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

/**
 * Headings of both exports: the table's six in their order (files built on those columns keep
 * working), times labelled IST, then when it was sent, its campaign, its cost and its message id
 * (the `msg_…` id of the integrator API).
 */
export const REPORT_EXPORT_COLUMNS: readonly string[] = [
  messages.reports.columns.template,
  messages.reports.columns.recipient,
  messages.reports.columns.status,
  messages.reports.exportColumns.deliveredAt,
  messages.reports.exportColumns.readAt,
  messages.reports.columns.error,
  messages.reports.exportColumns.sentAt,
  messages.reports.exportColumns.campaign,
  messages.reports.exportColumns.cost,
  messages.reports.exportColumns.messageId,
];

/** An exported row: the table's cells and the export's own. Times are IST wall-clock text. */
export interface ReportExportSource extends ReportCellSource {
  sentAt: string | null;
  campaign: string;
  /** Rupees charged for the message (0 when not charged or refunded). */
  cost: number;
  messageId: string;
}

/** "0.80", "0.7850": the price as charged, 2 to 4 decimals, no currency sign (the heading says INR). */
export function formatReportCost(rupees: number): string {
  const fixed = rupees.toFixed(4);
  return fixed.replace(/(\.\d\d\d*?)0+$/, '$1');
}

export function reportExportCells(row: ReportExportSource): string[] {
  return [...reportCells(row), row.sentAt ?? messages.reports.notSent, row.campaign, formatReportCost(row.cost), row.messageId];
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

export { formatIstDateTime, istDate } from './istTime';
