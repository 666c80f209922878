import type { TUnknownWebhookEvent, TUnknownWebhookEventsPage } from '@shared/schemas/webhookEvents';
import type { UnknownWebhookEventPage, UnknownWebhookEventRow } from '../webhookEvents/unknownEvents';

export function presentUnknownWebhookEvent(row: UnknownWebhookEventRow): TUnknownWebhookEvent {
  return { id: Number(row.id), field: row.field, wabaId: row.wabaId ?? null, receivedAt: new Date(row.receivedAt).toISOString(), body: row.body };
}

export function presentUnknownWebhookEventPage(page: UnknownWebhookEventPage): TUnknownWebhookEventsPage {
  return { success: true, events: page.events.map(presentUnknownWebhookEvent), total: page.total, page: page.page, totalPages: page.totalPages };
}
