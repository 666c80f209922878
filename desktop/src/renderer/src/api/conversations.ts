import type { TConversation, TConversationMessage, TConversationThread, TConversationsPage, TReplyMediaUploaded } from '@shared/schemas/conversations';
import { apiGet, apiPost } from './client';

/** Replies: conversations with contacts and service replies (GET/POST /api/conversations...). */
export const conversationsApi = {
  list: (query: { q?: string; unread?: boolean; campaign_id?: number; cursor?: string }) =>
    apiGet<TConversationsPage>('/api/conversations', {
      params: { q: query.q || undefined, unread: query.unread ? 'true' : undefined, campaign_id: query.campaign_id || undefined, cursor: query.cursor },
    }),
  thread: (phone: string, cursor?: string) => apiGet<TConversationThread>(`/api/conversations/${phone}/messages`, { params: { cursor } }),
  reply: (phone: string, body: { text?: string; media_upload_id?: string; caption?: string }) => apiPost<{ data: TConversationMessage }>(`/api/conversations/${phone}/messages`, body),
  read: (phone: string) => apiPost<{ data: TConversation }>(`/api/conversations/${phone}/read`, {}),
  uploadMedia: (file: File) => apiPost<TReplyMediaUploaded>('/api/conversations/media', file, { headers: { 'Content-Type': 'application/octet-stream', 'X-File-Type': file.type } }),
};

export const conversationKeys = {
  all: ['conversations'] as const,
  list: (filters: { q: string; unread: boolean; campaignId: number | null }) => ['conversations', 'list', filters] as const,
  thread: (phone: string | null) => ['conversations', 'thread', phone] as const,
};
