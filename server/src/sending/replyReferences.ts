/**
 * Service replies (conversations/service.ts) carry their own reference, apart from campaign sends'
 * (dispatcher.ts `sendReference`), so that status ingestion routes their statuses without touching
 * campaign messages.
 */
/** The reference a service reply carries in `biz_opaque_callback_data`, so its statuses find it. */
export const REPLY_REFERENCE_PREFIX = 'sandesh-reply:';

export function replyReference(id: number): string {
  return `${REPLY_REFERENCE_PREFIX}${id}`;
}

export function parseReplyReference(value: string | null | undefined): number | null {
  const match = /^sandesh-reply:(\d{1,18})$/.exec(value ?? '');
  return match ? Number(match[1]) : null;
}
