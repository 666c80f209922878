import { messageFigures } from '@shared/figures';
import type { TReportRow, TReportSender, TReportsPage, TReportsSummary } from '@shared/schemas/reports';
import type { ReportCounts, ReportPage, ReportRecord, ReportSender } from '../reports/service';
import { reportErrorOf, reportStatusOf } from '../reports/status';

function iso(value: string | Date | null): string | null {
  if (value === null) return null;
  return value instanceof Date ? value.toISOString() : new Date(value).toISOString();
}

/** One report row (spec 002 §3 "Report row"): statuses as reports group them, times in ISO 8601 UTC. */
export function presentReportRow(record: ReportRecord): TReportRow {
  return {
    id: record.id,
    template_used: record.templateName,
    recipient_number: record.recipient,
    status: reportStatusOf(record.status),
    delivered_at: iso(record.deliveredAt),
    read_at: iso(record.readAt),
    error_message: reportErrorOf(record.status, record.errorMessage),
    // Only on a failed message: other rows keep exactly the keys they had.
    ...(record.status === 'failed' && record.errorCode !== null
      ? {
          error: {
            code: Number(record.errorCode),
            subcode: record.errorSubcode === null ? null : Number(record.errorSubcode),
            title: record.errorTitle,
            details: record.errorDetails,
            is_transient: record.errorTransient === null ? null : Boolean(record.errorTransient),
            fbtrace_id: record.errorFbtraceId,
          },
        }
      : {}),
    sent_at: iso(record.sentAt),
    created_at: iso(record.createdAt) ?? '',
    campaign_id: record.campaignId,
    campaign_name: record.campaignName,
    category: record.category,
    meta_category: record.metaCategory ? record.metaCategory.toUpperCase() : null,
    meta_billable: record.metaBillable,
  };
}

export function presentReportsPage(page: ReportPage): TReportsPage {
  return {
    reports: page.records.map(presentReportRow),
    total: page.total,
    page: page.page,
    limit: page.limit,
    totalPages: Math.max(1, Math.ceil(page.total / page.limit)),
  };
}

export function presentReportsSummary(counts: ReportCounts): TReportsSummary {
  const figures = messageFigures(counts);
  return {
    total: figures.total,
    sent: figures.sent,
    delivered: figures.delivered,
    read: figures.read,
    failed: figures.failed,
    cancelled: figures.cancelled,
    duplicate: figures.duplicate,
    pending: figures.pending,
    deliveryRate: figures.deliveryRate,
    readRate: figures.readRate,
  };
}

export function presentReportSenders(senders: readonly ReportSender[]): TReportSender[] {
  return senders.map((sender) => ({ userId: sender.userId, name: sender.name }));
}
