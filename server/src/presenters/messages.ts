import type { TMessagesPage, TPublicMessage } from '@shared/schemas/messages';
import { toPublicMessage, type PublicMessageRow } from '../integratorApi/publicMessage';
import type { MessageStatusPage } from '../integratorApi/messageStatus';

/** GET /api/messages/{messageId}; webhook events carry the same object. */
export function presentPublicMessage(row: PublicMessageRow): TPublicMessage {
  return toPublicMessage(row);
}

export function presentMessagesPage(page: MessageStatusPage): TMessagesPage {
  return { data: page.rows.map(toPublicMessage), has_more: page.nextCursor !== null, next_cursor: page.nextCursor };
}
