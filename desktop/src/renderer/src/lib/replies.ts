import { messages } from '@shared/messages';
import type { TConversationMessage, TReplyEffect } from '@shared/schemas/conversations';

/** How the Replies thread shows a message's file: played in place for pictures, video and audio, a link for the rest. */
export type MediaPreview = 'image' | 'video' | 'audio' | 'file';

/** The preview of a message's file, or null while there is nothing to show (not fetched yet, failed, no file). */
export function mediaPreview(media: TConversationMessage['media']): MediaPreview | null {
  if (!media?.url) return null;
  const mime = media.mime_type ?? '';
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('video/')) return 'video';
  if (mime.startsWith('audio/')) return 'audio';
  return 'file';
}

/** The badge on an incoming message the opt-out rule acted on or flagged; null for none. */
export function replyEffectLabel(effect: TReplyEffect | null): string | null {
  return effect ? messages.conversations.effects[effect] : null;
}

/** Quick Send with the contact's number filled in: outside the service window only a template may go. */
export function quickSendHref(phone: string): string {
  return `/user/whatsapp-bulk?to=${encodeURIComponent(phone)}`;
}

/** The number Quick Send fills in from its `?to=`: digits and a leading plus only, nothing else of the link. */
export function recipientsFromQuery(to: string | null): string {
  return to?.replace(/[^\d+]/g, '') ?? '';
}
