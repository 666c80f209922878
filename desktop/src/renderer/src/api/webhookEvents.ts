import type { TUnknownWebhookEventsPage } from '@shared/schemas/webhookEvents';
import { apiGet } from './client';

/** Signed webhook changes the server stored without acting on them: admin only. */
export const webhookEventsApi = {
  unknown: (page: number, limit: number) => apiGet<TUnknownWebhookEventsPage>('/api/admin/webhook-events/unknown', { params: { page, limit } }),
};

export const webhookEventsKeys = {
  unknown: (page: number) => ['admin', 'webhook-events', 'unknown', page] as const,
};
