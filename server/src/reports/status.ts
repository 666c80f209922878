/**
 * The messages table's statuses as reports show them: queued, sending and unknown (a send
 * waiting for its status webhook) are `pending`, suppressed (the recipient opted out) is
 * `failed`; the rest are themselves. The same grouping is REPORT_STATUS_EXPRESSION in SQL, which
 * filters and counts use.
 */
import type { TReportStatus } from '@shared/schemas/reports';

/**
 * The grouping in SQL. It must be the text the report status index was built on (migration
 * 20261125140100), character for character: both databases use an expression index only for the
 * identical expression.
 */
export const REPORT_STATUS_EXPRESSION = "case when status in ('queued', 'sending', 'unknown') then 'pending' when status = 'suppressed' then 'failed' else status end";

export function reportStatusOf(status: string): TReportStatus {
  switch (status) {
    case 'sent':
    case 'delivered':
    case 'read':
    case 'failed':
    case 'cancelled':
    case 'duplicate':
      return status;
    case 'suppressed':
      return 'failed';
    default:
      return 'pending';
  }
}

/**
 * A report row's error: the stored text for a message that ended in failure or was blocked, null
 * otherwise. A pending message may carry the reason of its last retry; it is not an error yet.
 */
export function reportErrorOf(status: string, errorMessage: string | null): string | null {
  const shown = reportStatusOf(status);
  return shown === 'failed' || shown === 'cancelled' || shown === 'duplicate' ? errorMessage : null;
}
