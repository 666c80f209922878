import { z } from 'zod';
import { EXAMPLE_MESSAGE, ZPublicMessage } from './messages';

/** Signed delivery webhooks: endpoints, their deliveries, and the events they receive. */

/** Event types (one a line, so branches that add one merge cleanly). */
export const WEBHOOK_EVENT_TYPES = [
  'message.sent',
  'message.delivered',
  'message.read',
  'message.failed',
  'message.received',
  'message.button_clicked',
  'campaign.completed',
  'wallet.low_balance',
  'template.approved',
  'template.rejected',
  'template.status_changed',
] as const;
export type TWebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The event `POST /api/webhook-endpoints/{id}/test` delivers. */
export const WEBHOOK_PING_EVENT = 'ping';

export const WEBHOOK_BATCH_MAX_EVENTS = 100;
export const WEBHOOK_ENDPOINTS_MAX_PER_USER = 10;

export const ZCreateWebhookEndpointRequest = z
  .object({
    url: z.string().trim().min(1).max(2048),
    events: z.array(z.enum(WEBHOOK_EVENT_TYPES)).min(1).max(WEBHOOK_EVENT_TYPES.length),
    description: z.string().trim().max(200).optional(),
    batch: z.boolean().optional().describe(`Deliver arrays of up to ${WEBHOOK_BATCH_MAX_EVENTS} events per request`),
  })
  .meta({
    id: 'CreateWebhookEndpointRequest',
    examples: [{ url: 'https://example.com/sandesh/webhooks', events: ['message.delivered', 'message.failed'], description: 'Order system' }],
  });
export type TCreateWebhookEndpointRequest = z.infer<typeof ZCreateWebhookEndpointRequest>;

export const ZWebhookEndpoint = z
  .object({
    id: z.number().int(),
    url: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
    description: z.string().nullable(),
    batch: z.boolean(),
    status: z.enum(['active', 'disabled']),
    failing_since: z.iso.datetime().nullable(),
    disabled_at: z.iso.datetime().nullable(),
    created_at: z.iso.datetime(),
  })
  .meta({
    id: 'WebhookEndpoint',
    examples: [
      {
        id: 7,
        url: 'https://example.com/sandesh/webhooks',
        events: ['message.delivered', 'message.failed'],
        description: 'Order system',
        batch: false,
        status: 'active',
        failing_since: null,
        disabled_at: null,
        created_at: '2026-11-24T09:00:00.000Z',
      },
    ],
  });
export type TWebhookEndpoint = z.infer<typeof ZWebhookEndpoint>;

/** The answer to create and rotate-secret: the only times the secret is shown. */
export const ZWebhookEndpointCreated = z
  .object({
    id: z.number().int(),
    url: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
    secret: z.string().describe('Shown once: keep it to verify Sandesh-Signature'),
    created_at: z.iso.datetime(),
  })
  .meta({
    id: 'WebhookEndpointCreated',
    examples: [
      {
        id: 7,
        url: 'https://example.com/sandesh/webhooks',
        events: ['message.delivered', 'message.failed'],
        secret: 'whsec_3q2-7wEXAMPLEo4vH0uDkYVnY1aX1yZk8h2bq3mVtGfw',
        created_at: '2026-11-24T09:00:00.000Z',
      },
    ],
  });
export type TWebhookEndpointCreated = z.infer<typeof ZWebhookEndpointCreated>;

export const ZWebhookDelivery = z
  .object({
    id: z.number().int(),
    event_id: z.string(),
    event: z.string().describe('The event type (the first one of a batch)'),
    event_count: z.number().int(),
    state: z.enum(['pending', 'succeeded', 'failed']),
    attempts: z.number().int(),
    created_at: z.iso.datetime(),
    last_attempt_at: z.iso.datetime().nullable(),
    http_status: z.number().int().nullable(),
    latency_ms: z.number().int().nullable(),
    error: z.string().nullable(),
    next_retry_at: z.iso.datetime().nullable(),
  })
  .meta({
    id: 'WebhookDelivery',
    examples: [
      {
        id: 311,
        event_id: 'evt_5GmC2h1kq0aV9xS3',
        event: 'message.delivered',
        event_count: 1,
        state: 'pending',
        attempts: 2,
        created_at: '2026-11-24T09:30:03.000Z',
        last_attempt_at: '2026-11-24T09:30:35.000Z',
        http_status: 503,
        latency_ms: 120,
        error: null,
        next_retry_at: '2026-11-24T09:31:40.000Z',
      },
    ],
  });
export type TWebhookDelivery = z.infer<typeof ZWebhookDelivery>;

/** A delivered event: `{ id, type, created_at, data }`; a message event's data is the message. */
export const ZWebhookEvent = z
  .object({
    id: z.string(),
    type: z.union([z.enum(WEBHOOK_EVENT_TYPES), z.literal(WEBHOOK_PING_EVENT)]),
    created_at: z.iso.datetime(),
    data: z.union([ZPublicMessage, z.record(z.string(), z.unknown())]),
  })
  .meta({
    id: 'WebhookEvent',
    examples: [
      {
        id: 'evt_5GmC2h1kq0aV9xS3',
        type: 'message.delivered',
        created_at: '2026-11-24T09:30:03.000Z',
        data: EXAMPLE_MESSAGE,
      },
    ],
  });
export type TWebhookEvent = z.infer<typeof ZWebhookEvent>;

/**
 * `data` of `template.status_changed`: Meta moved one of the owner's templates, and what that did to
 * the campaigns using it (`paused` while Meta holds it, `resumed` when Meta reinstates it,
 * `failed` with their unsent messages refunded when Meta takes it out of use).
 */
export const ZTemplateStatusChangedData = z
  .object({
    template_id: z.number().int(),
    name: z.string(),
    language: z.string(),
    status: z.string().describe('The template status now (APPROVED, PAUSED, DISABLED, APPEAL_REQUESTED, REJECTED)'),
    previous_status: z.string(),
    meta_event: z.string().describe("Meta's event: PAUSED, REINSTATED, DISABLED, PENDING_DELETION, ARCHIVED, IN_APPEAL, REJECTED, LIMIT_EXCEEDED, APPROVED"),
    reason: z.string().nullable(),
    changed_at: z.iso.datetime(),
    campaigns: z.object({
      action: z.enum(['paused', 'resumed', 'failed']).nullable(),
      campaign_ids: z.array(z.number().int()),
    }),
  })
  .meta({
    id: 'TemplateStatusChangedData',
    examples: [
      {
        template_id: 42,
        name: 'order_update',
        language: 'en_US',
        status: 'PAUSED',
        previous_status: 'APPROVED',
        meta_event: 'PAUSED',
        reason: 'NONE',
        changed_at: '2026-12-07T09:30:00.000Z',
        campaigns: { action: 'paused', campaign_ids: [311, 312] },
      },
    ],
  });
export type TTemplateStatusChangedData = z.infer<typeof ZTemplateStatusChangedData>;

export const ZWebhookEndpointList = z.object({ data: z.array(ZWebhookEndpoint) }).meta({
  id: 'WebhookEndpointList',
  examples: [{ data: (ZWebhookEndpoint.meta()?.examples as unknown[] | undefined) ?? [] }],
});

export const ZWebhookDeliveryList = z.object({ data: z.array(ZWebhookDelivery) }).meta({
  id: 'WebhookDeliveryList',
  examples: [{ data: (ZWebhookDelivery.meta()?.examples as unknown[] | undefined) ?? [] }],
});

/**
 * `data` of `message.received` (every message a contact sends to one of the owner's numbers) and
 * of `message.button_clicked` (a tap on a template's quick-reply button or an interactive choice,
 * with `button_text`). `campaign_id` and `reply_to_message_id` name the campaign message answered.
 */
export const ZMessageReceivedData = z
  .object({
    id: z.string().describe('in_<n>: the message in GET /api/conversations/{phone}/messages'),
    from: z.string(),
    profile_name: z.string().nullable(),
    kind: z.string(),
    text: z.string().nullable(),
    campaign_id: z.number().int().nullable(),
    reply_to_message_id: z.string().nullable(),
    received_at: z.iso.datetime(),
    button_text: z.string().optional().describe('message.button_clicked only: the text of the button tapped'),
  })
  .meta({
    id: 'MessageReceivedData',
    examples: [
      {
        id: 'in_5521',
        from: '919876543210',
        profile_name: 'Asha',
        kind: 'button',
        text: 'Yes, send me the price',
        campaign_id: 1289,
        reply_to_message_id: 'msg_48213907',
        received_at: '2026-11-24T09:45:10.000Z',
        button_text: 'Yes, send me the price',
      },
    ],
  });
export type TMessageReceivedData = z.infer<typeof ZMessageReceivedData>;
