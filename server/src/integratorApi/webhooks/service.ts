/**
 * Signed delivery webhooks: an owner's endpoints (create, list, delete, rotate the
 * secret, test, deliveries, retry) and the enqueueing of events. Status changes enqueue one outbox
 * row per batch, and only while some endpoint exists at all (known from a short-lived cache), so
 * a million-message campaign costs the dispatcher a handful of inserts, or nothing without
 * endpoints. The worker (deliverer.ts) turns outbox rows into deliveries and sends them.
 */
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { fillMessage, messages } from '@shared/messages';
import {
  WEBHOOK_ENDPOINTS_MAX_PER_USER,
  WEBHOOK_PING_EVENT,
  type TCreateWebhookEndpointRequest,
  type TWebhookEventType,
} from '@shared/schemas/webhookEndpoints';
import { afterCommit } from '../../db/knex';
import { ConflictError, NotFoundError, ValidationError } from '../../errors';
import type { Logger } from '../../logger';
import type { SecretBox } from '../../security/secretBox';
import { refuseUrl, type AddressPolicy, type UrlRefusal } from './addressPolicy';
import { newWebhookSecret } from './signature';

export interface WebhookEndpointRow {
  id: number;
  userId: number;
  url: string;
  description: string | null;
  events: string;
  secretSealed: string;
  batch: boolean | number;
  status: 'active' | 'disabled';
  failingSince: string | Date | null;
  disabledAt: string | Date | null;
  createdAt: string | Date;
}

export interface WebhookDeliveryRow {
  id: number | string;
  endpointId: number;
  eventId: string;
  eventType: string;
  eventCount: number;
  body: string;
  state: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  nextAttemptAt: string | Date | null;
  lastAttemptAt: string | Date | null;
  lastStatus: number | null;
  lastLatencyMs: number | null;
  lastError: string | null;
  createdAt: string | Date;
}

/** A message status an integrator can subscribe to, and the messages that reached it. */
export interface MessageStatusChange {
  status: 'sent' | 'delivered' | 'read' | 'failed';
  messageIds: readonly number[];
}

const REFUSALS: Record<UrlRefusal, string> = {
  invalid: messages.integrations.webhookUrlInvalid,
  scheme: messages.integrations.webhookUrlScheme,
  credentials: messages.integrations.webhookUrlCredentials,
  address: messages.integrations.webhookUrlAddress,
};

/** Whether any endpoint exists is cached this long per instance: an endpoint made on another instance is seen within it. */
const ANY_ENDPOINT_CACHE_MS = 5_000;
const DELIVERIES_LISTED = 100;

export function newEventId(): string {
  return `evt_${randomBytes(12).toString('base64url')}`;
}

function secretContext(userId: number): string {
  return `webhook_endpoints.secret:${userId}`;
}

export class WebhookService {
  private anyEndpoint: { known: boolean; at: number } = { known: false, at: 0 };
  /** Called when work was added (the worker looks now rather than at its next poll). */
  onWork: (() => void) | null = null;

  constructor(private readonly deps: { db: Knex; secretBox: SecretBox; policy: AddressPolicy; log: Logger; now?: () => Date }) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  get policy(): AddressPolicy {
    return this.deps.policy;
  }

  secretOf(endpoint: Pick<WebhookEndpointRow, 'userId' | 'secretSealed'>): string {
    return this.deps.secretBox.open(endpoint.secretSealed, secretContext(endpoint.userId));
  }

  private async assertDeliverable(url: string): Promise<void> {
    const refusal = await refuseUrl(url, this.deps.policy);
    if (refusal) throw ValidationError('url', REFUSALS[refusal]);
  }

  async create(userId: number, input: TCreateWebhookEndpointRequest): Promise<{ endpoint: WebhookEndpointRow; secret: string }> {
    await this.assertDeliverable(input.url);
    const count = Number(((await this.deps.db('webhook_endpoints').where({ userId }).count({ n: '*' })) as { n: number | string }[])[0]?.n ?? 0);
    if (count >= WEBHOOK_ENDPOINTS_MAX_PER_USER) throw ConflictError('webhook_endpoints_limit', fillMessage(messages.integrations.webhookEndpointsLimit, { max: WEBHOOK_ENDPOINTS_MAX_PER_USER }));
    const secret = newWebhookSecret();
    const nowIso = this.now().toISOString();
    const [inserted] = (await this.deps
      .db('webhook_endpoints')
      .insert({
        userId,
        url: input.url,
        description: input.description || null,
        events: JSON.stringify([...new Set(input.events)]),
        secretSealed: this.deps.secretBox.seal(secret, secretContext(userId)),
        batch: input.batch ?? false,
        status: 'active',
        createdAt: nowIso,
        updatedAt: nowIso,
      })
      .returning('id')) as { id: number }[];
    this.anyEndpoint = { known: true, at: Date.now() };
    return { endpoint: await this.find(userId, Number(inserted?.id)), secret };
  }

  async list(userId: number): Promise<WebhookEndpointRow[]> {
    return (await this.deps.db('webhook_endpoints').where({ userId }).orderBy('id', 'desc')) as WebhookEndpointRow[];
  }

  async find(userId: number, id: number): Promise<WebhookEndpointRow> {
    const row = (await this.deps.db('webhook_endpoints').where({ userId, id }).first()) as WebhookEndpointRow | undefined;
    if (!row) throw NotFoundError(messages.integrations.webhookEndpointNotFound, 'webhook_endpoint_not_found');
    return row;
  }

  async remove(userId: number, id: number): Promise<void> {
    await this.find(userId, id);
    await this.deps.db('webhook_endpoints').where({ userId, id }).delete();
  }

  async rotateSecret(userId: number, id: number): Promise<{ endpoint: WebhookEndpointRow; secret: string }> {
    await this.find(userId, id);
    const secret = newWebhookSecret();
    await this.deps.db('webhook_endpoints').where({ userId, id }).update({ secretSealed: this.deps.secretBox.seal(secret, secretContext(userId)), updatedAt: this.now().toISOString() });
    return { endpoint: await this.find(userId, id), secret };
  }

  /** Queues a `ping` event to the endpoint, whatever events it takes. */
  async test(userId: number, id: number): Promise<WebhookDeliveryRow> {
    const endpoint = await this.find(userId, id);
    const now = this.now();
    const event = { id: newEventId(), type: WEBHOOK_PING_EVENT, created_at: now.toISOString(), data: { endpoint_id: endpoint.id } };
    const [inserted] = (await this.deps
      .db('webhook_deliveries')
      .insert(deliveryRow(endpoint, [event], now))
      .returning('id')) as { id: number | string }[];
    this.onWork?.();
    return this.delivery(userId, id, Number(inserted?.id));
  }

  async deliveries(userId: number, id: number): Promise<WebhookDeliveryRow[]> {
    await this.find(userId, id);
    return (await this.deps.db('webhook_deliveries').where({ endpointId: id }).orderBy('id', 'desc').limit(DELIVERIES_LISTED)) as WebhookDeliveryRow[];
  }

  async delivery(userId: number, endpointId: number, deliveryId: number): Promise<WebhookDeliveryRow> {
    await this.find(userId, endpointId);
    const row = (await this.deps.db('webhook_deliveries').where({ endpointId, id: deliveryId }).first()) as WebhookDeliveryRow | undefined;
    if (!row) throw NotFoundError(messages.integrations.webhookDeliveryNotFound, 'webhook_delivery_not_found');
    return row;
  }

  /**
   * Sends the delivery again now (after its earlier ones: deliveries go in order). Retrying turns a
   * disabled endpoint back on: the owner says the receiver is fixed.
   */
  async retry(userId: number, endpointId: number, deliveryId: number): Promise<WebhookDeliveryRow> {
    await this.delivery(userId, endpointId, deliveryId);
    const nowIso = this.now().toISOString();
    await this.deps.db.transaction(async (trx) => {
      await trx('webhook_deliveries').where({ id: deliveryId }).update({ state: 'pending', nextAttemptAt: nowIso, updatedAt: nowIso });
      await trx('webhook_endpoints').where({ id: endpointId, status: 'disabled' }).update({ status: 'active', disabledAt: null, failingSince: null, updatedAt: nowIso });
    });
    this.onWork?.();
    return this.delivery(userId, endpointId, deliveryId);
  }

  /** Whether any active endpoint exists, from the cache; null when the cache is stale. */
  private cachedAnyEndpoint(): boolean | null {
    return Date.now() - this.anyEndpoint.at < ANY_ENDPOINT_CACHE_MS ? this.anyEndpoint.known : null;
  }

  /** `db`: where to ask when the cache is stale (a transaction on SQLite holds the only connection). */
  private async anyEndpointExists(db: Knex = this.deps.db): Promise<boolean> {
    const cached = this.cachedAnyEndpoint();
    if (cached !== null) return cached;
    const found = await db('webhook_endpoints').where({ status: 'active' }).first('id');
    this.anyEndpoint = { known: Boolean(found), at: Date.now() };
    return this.anyEndpoint.known;
  }

  /**
   * Message statuses changed (the dispatcher's results, the status webhook, a scheduled send that
   * could not start): one outbox row per status, written in `trx`, the transaction that changes
   * them, so that a crash right after its commit cannot lose the event; nothing at all while no
   * endpoint exists.
   */
  async recordMessageStatuses(trx: Knex, changes: readonly MessageStatusChange[]): Promise<void> {
    const rows = changes.filter((c) => c.messageIds.length > 0);
    if (rows.length === 0) return;
    await this.recordInTransaction(trx, 'webhook events not enqueued', async () => {
      const createdAt = this.now().toISOString();
      return rows.map((c) => ({ type: `message.${c.status}`, messageIds: JSON.stringify(c.messageIds), createdAt }));
    });
  }

  /**
   * Campaigns that may just have completed, in `trx`, the transaction that completes them: one
   * `campaign.completed` each. The event id is the campaign's and its completion time's, so a
   * repeat is delivered once, while the public API's day campaign, which runs again when a send
   * joins it, announces each completion.
   */
  async recordCampaignsCompleted(trx: Knex, campaignIds: readonly number[]): Promise<void> {
    if (campaignIds.length === 0) return;
    await this.recordInTransaction(trx, 'campaign webhook events not enqueued', async (savepoint) => {
      const campaigns = (await savepoint('campaigns').whereIn('id', campaignIds).where({ status: 'completed' }).select('id', 'userId', 'name', 'completedAt')) as {
        id: number;
        userId: number;
        name: string;
        completedAt: string | Date | null;
      }[];
      const createdAt = this.now().toISOString();
      return campaigns.map((campaign) => {
        const completedAt = campaign.completedAt ? new Date(campaign.completedAt) : null;
        return {
          type: 'campaign.completed' satisfies TWebhookEventType,
          userId: Number(campaign.userId),
          // At most 40 characters (the column): the completion time in base 36.
          eventId: completedAt ? `evt_campaign_${campaign.id}_${completedAt.getTime().toString(36)}` : `evt_campaign_${campaign.id}_completed`,
          data: JSON.stringify({ campaign_id: Number(campaign.id), name: campaign.name, completed_at: completedAt ? completedAt.toISOString() : null }),
          createdAt,
        };
      });
    });
  }

  /**
   * Outbox rows written in the transaction of the change they announce, in a savepoint of their
   * own: if the insert fails, the change still commits and the failure is logged (a webhook must
   * never fail a send). The worker is woken once the change commits. Nothing is read or written
   * while no endpoint exists (known from the cache).
   */
  private async recordInTransaction(trx: Knex, failure: string, outboxRows: (savepoint: Knex.Transaction) => Promise<Record<string, unknown>[]>): Promise<void> {
    const cached = this.cachedAnyEndpoint();
    if (cached === false) return;
    try {
      let recorded = false;
      await trx.transaction(async (savepoint) => {
        if (cached === null && !(await this.anyEndpointExists(savepoint))) return;
        const rows = await outboxRows(savepoint);
        if (rows.length === 0) return;
        await savepoint('webhook_outbox').insert(rows);
        recorded = true;
      });
      if (recorded) afterCommit(trx, () => this.onWork?.(), (error) => this.deps.log.warn({ err: error }, 'webhook worker not woken'));
    } catch (error) {
      this.deps.log.warn({ err: error }, failure);
    }
  }

  /** An event of one owner (campaign completed, low balance, template reviewed). Never throws. */
  async ownerEvent(userId: number, type: TWebhookEventType, data: Record<string, unknown>, eventId?: string): Promise<void> {
    await this.ownerEvents([{ userId, type, data, ...(eventId ? { eventId } : {}) }]);
  }

  /**
   * Events of owners announced together (a batch of incoming messages): one insert per few
   * hundred, so that announcing costs a statement per batch rather than one per event. Never throws.
   */
  async ownerEvents(events: readonly OwnerEvent[]): Promise<void> {
    if (events.length === 0) return;
    try {
      if (!(await this.anyEndpointExists())) return;
      const createdAt = this.now().toISOString();
      const rows = events.map((event) => ({ type: event.type, userId: event.userId, eventId: event.eventId ?? null, data: JSON.stringify(event.data), createdAt }));
      for (let start = 0; start < rows.length; start += OWNER_EVENTS_PER_INSERT) await this.deps.db('webhook_outbox').insert(rows.slice(start, start + OWNER_EVENTS_PER_INSERT));
      this.onWork?.();
    } catch (error) {
      this.deps.log.warn({ err: error, types: [...new Set(events.map((event) => event.type))] }, 'webhook event not enqueued');
    }
  }
}

/** An event of one owner, as `ownerEvents` takes it; `eventId` keeps a repeat from being delivered twice. */
export interface OwnerEvent {
  userId: number;
  type: TWebhookEventType;
  data: Record<string, unknown>;
  eventId?: string;
}

/** Outbox rows per insert: five columns each, well inside either database's parameter limit. */
const OWNER_EVENTS_PER_INSERT = 500;

/** A delivery row carrying `events` (one, or a batch as an array). */
export function deliveryRow(endpoint: Pick<WebhookEndpointRow, 'id' | 'batch'>, events: readonly { id: string; type: string }[], now: Date, asBatch = false): Record<string, unknown> {
  const first = events[0] as { id: string; type: string };
  const nowIso = now.toISOString();
  return {
    endpointId: endpoint.id,
    eventId: asBatch ? `evb_${randomBytes(12).toString('base64url')}` : first.id,
    eventType: first.type,
    eventCount: events.length,
    body: JSON.stringify(asBatch ? events : first),
    state: 'pending',
    attempts: 0,
    nextAttemptAt: nowIso,
    createdAt: nowIso,
    updatedAt: nowIso,
  };
}
