import { CONVERSATIONS } from '@shared/constants';
import { unitsToRupees } from '@shared/money';
import type { TConversation, TConversationMessage, TConversationThread, TConversationsPage, TReplyEffect } from '@shared/schemas/conversations';
import type { ReplyEffect } from '../suppressions/optOutRule';
import type { CampaignMessageSummary, ConversationRow, ThreadMessage } from '../conversations/service';

const iso = (value: string | Date) => new Date(value).toISOString();

export function presentConversation(row: ConversationRow, now: Date = new Date()): TConversation {
  const endsAt = row.lastInboundAt ? new Date(new Date(row.lastInboundAt).getTime() + CONVERSATIONS.serviceWindowHours * 3_600_000) : null;
  return {
    phone: row.contact,
    profile_name: row.profileName,
    phone_number_id: row.phoneNumberId,
    last_message: { kind: row.lastKind, text: row.lastText, direction: row.lastDirection === 'in' || row.lastDirection === 'out' ? row.lastDirection : null, at: iso(row.lastMessageAt) },
    unread: Number(row.unreadCount),
    last_campaign_id: row.lastCampaignId === null ? null : Number(row.lastCampaignId),
    service_window_open: endsAt !== null && endsAt.getTime() > now.getTime(),
    service_window_ends_at: endsAt ? endsAt.toISOString() : null,
  };
}

function parseDetails(details: string | null): Record<string, unknown> | null {
  if (!details) return null;
  try {
    const parsed: unknown = JSON.parse(details);
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The stored effect (suppressions/optOutRule.ts) as the API names it. */
const REPLY_EFFECT_NAMES: Record<ReplyEffect, TReplyEffect | null> = { opt_out: 'opted_out', opt_in: 'opted_in', flag: 'flagged', none: null };

export function presentConversationMessage(row: ThreadMessage): TConversationMessage {
  const hasMedia = row.mediaState !== null;
  const state = (['pending', 'stored', 'failed', 'refused'] as const).find((s) => s === row.mediaState) ?? 'failed';
  const status = row.direction === 'in' ? 'received' : ((['queued', 'accepted', 'sent', 'delivered', 'read', 'failed'] as const).find((s) => s === row.status) ?? 'queued');
  return {
    id: `${row.direction}_${row.id}`,
    direction: row.direction,
    kind: row.kind,
    text: row.text,
    details: parseDetails(row.details),
    button_text: row.buttonText,
    profile_name: row.profileName,
    media: hasMedia
      ? {
          state,
          mime_type: row.mediaMime,
          filename: row.mediaFilename,
          size: row.mediaSize === null ? null : Number(row.mediaSize),
          url: row.direction === 'in' ? (state === 'stored' ? `/api/conversations/media/${row.id}` : null) : row.mediaPath ? `/${row.mediaPath}` : null,
        }
      : null,
    status,
    error: row.errorCode !== null || row.errorMessage !== null ? { code: row.errorCode === null ? null : Number(row.errorCode), title: row.errorMessage } : null,
    answers:
      row.answersMessageId !== null && row.campaignId !== null
        ? { message_id: `msg_${row.answersMessageId}`, campaign_id: Number(row.campaignId), campaign_name: row.campaignName, template: row.templateName, status: row.answeredStatus }
        : null,
    reply_effect: row.direction === 'in' && row.replyEffect !== null ? (REPLY_EFFECT_NAMES[row.replyEffect] ?? null) : null,
    cost: unitsToRupees(Number(row.priceUnits ?? 0), 4),
    at: iso(row.occurredAt),
  };
}

export function presentConversationsPage(page: { conversations: ConversationRow[]; nextCursor: string | null }): TConversationsPage {
  const now = new Date();
  return { data: page.conversations.map((row) => presentConversation(row, now)), has_more: page.nextCursor !== null, next_cursor: page.nextCursor };
}

export function presentThread(thread: { conversation: ConversationRow; messages: ThreadMessage[]; campaignMessages: CampaignMessageSummary[]; nextCursor: string | null }): TConversationThread {
  return {
    conversation: presentConversation(thread.conversation),
    data: thread.messages.map(presentConversationMessage),
    campaign_messages: thread.campaignMessages.map((m) => ({
      message_id: `msg_${m.id}`,
      campaign_id: Number(m.campaignId),
      campaign_name: m.campaignName,
      template: m.templateName,
      status: m.status,
      at: iso(m.sentAt ?? m.createdAt),
    })),
    has_more: thread.nextCursor !== null,
    next_cursor: thread.nextCursor,
  };
}
