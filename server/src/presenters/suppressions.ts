import type { TReplyFlag, TSuppression, TSuppressionsPage } from '@shared/schemas/suppressions';
import type { ReplyFlagRecord, SuppressionPage, SuppressionRecord } from '../suppressions/service';

export function presentSuppression(entry: SuppressionRecord): TSuppression {
  return { phone: entry.phone, source: entry.source, reason: entry.reason, created_at: entry.createdAt.toISOString() };
}

export function presentSuppressionsPage(page: SuppressionPage): TSuppressionsPage {
  return { data: page.entries.map(presentSuppression), has_more: page.hasMore, next_cursor: page.nextCursor };
}

export function presentReplyFlag(flag: ReplyFlagRecord): TReplyFlag {
  return { id: flag.id, phone: flag.phone, text: flag.text, received_at: flag.receivedAt.toISOString() };
}
