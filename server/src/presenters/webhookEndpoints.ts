import type { TWebhookDelivery, TWebhookEndpoint, TWebhookEndpointCreated, TWebhookEventType } from '@shared/schemas/webhookEndpoints';
import type { WebhookDeliveryRow, WebhookEndpointRow } from '../integratorApi/webhooks/service';

function iso(value: string | Date | null): string | null {
  return value === null ? null : new Date(value).toISOString();
}

/** An endpoint without its secret (the secret is shown once, at creation or rotation). */
export function presentWebhookEndpoint(row: WebhookEndpointRow): TWebhookEndpoint {
  return {
    id: Number(row.id),
    url: row.url,
    events: JSON.parse(row.events) as TWebhookEventType[],
    description: row.description,
    batch: Boolean(row.batch),
    status: row.status,
    failing_since: iso(row.failingSince),
    disabled_at: iso(row.disabledAt),
    created_at: iso(row.createdAt) ?? '',
  };
}

export function presentWebhookEndpointCreated(row: WebhookEndpointRow, secret: string): TWebhookEndpointCreated {
  return { id: Number(row.id), url: row.url, events: JSON.parse(row.events) as TWebhookEventType[], secret, created_at: iso(row.createdAt) ?? '' };
}

export function presentWebhookDelivery(row: WebhookDeliveryRow): TWebhookDelivery {
  return {
    id: Number(row.id),
    event_id: row.eventId,
    event: row.eventType,
    event_count: Number(row.eventCount),
    state: row.state,
    attempts: Number(row.attempts),
    created_at: iso(row.createdAt) ?? '',
    last_attempt_at: iso(row.lastAttemptAt),
    http_status: row.lastStatus === null ? null : Number(row.lastStatus),
    latency_ms: row.lastLatencyMs === null ? null : Number(row.lastLatencyMs),
    error: row.lastError,
    next_retry_at: row.state === 'pending' ? iso(row.nextAttemptAt) : null,
  };
}
