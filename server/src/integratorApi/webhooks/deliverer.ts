/**
 * The webhook worker, one per instance. Two steps, repeated while there is work:
 * 1. expand: outbox rows become deliveries, one per endpoint subscribed to the event (or batches
 *    of up to 100 events for endpoints with `batch`), in outbox order; on PostgreSQL several
 *    instances take different rows (`for update skip locked`).
 * 2. deliver: each endpoint's pending deliveries are sent in order, by one instance at a time
 *    (a lease on the endpoint row), so one message's events arrive in the order they happened.
 *    A failed head waits for its retry and holds the endpoint's later deliveries behind it;
 *    other endpoints are not held up. Retries back off exponentially with jitter for 24 hours;
 *    an endpoint failing for 3 days is disabled and its owner notified.
 * At least once: a delivery is marked succeeded only after its 2xx answer, so a crash in between
 * sends it again; receivers deduplicate by event id.
 */
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { Agent, request } from 'undici';
import { INTEGRATIONS } from '@shared/constants';
import { fillMessage, messages } from '@shared/messages';
import { WEBHOOK_BATCH_MAX_EVENTS } from '@shared/schemas/webhookEndpoints';
import type { Logger } from '../../logger';
import { OutageLog } from '../../db/outage';
import { forUpdateSkipLocked } from '../../db/dialect';
import type { NotificationService } from '../../notifications/service';
import { PUBLIC_MESSAGE_COLUMNS, toPublicMessage, type PublicMessageRow } from '../publicMessage';
import { guardedConnector } from './addressPolicy';
import { EVENT_ID_HEADER, SIGNATURE_HEADER, signatureHeader } from './signature';
import { deliveryRow, newEventId, type WebhookDeliveryRow, type WebhookEndpointRow, type WebhookService } from './service';

const IDLE_POLL_MS = 500;
const OUTBOX_ROWS_PER_TURN = 20;
const ENDPOINTS_PER_TURN = 50;
const DELIVERIES_PER_LEASE = 200;
/** Pending deliveries of one endpoint read (and their successes recorded) at a time. */
const DELIVERIES_PER_PAGE = 50;
/** POSTs one endpoint has in flight at once (each carrying a different message's events). */
const DELIVERIES_IN_FLIGHT = 8;
const LEASE_MS = 60_000;
const RESPONSE_BYTES_READ = 4096;
const DAY_MS = 86_400_000;

interface OutboxRow {
  id: number | string;
  type: string;
  messageIds: string | null;
  userId: number | null;
  eventId: string | null;
  data: string | null;
  createdAt: string | Date;
}

export interface DeliveryOutcome {
  status: number | null;
  latencyMs: number;
  error: string | null;
}

/** The wait before retry number `attempt` (1 = first retry): doubling from 30 s to 2 h, with jitter of up to half. */
export function retryDelayMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(INTEGRATIONS.webhookFirstRetrySeconds * 2 ** (attempt - 1), INTEGRATIONS.webhookMaxRetrySeconds) * 1000;
  return Math.round(base * (0.5 + random() / 2));
}

export class WebhookDeliverer {
  private running = false;
  private loop: Promise<void> | null = null;
  private waker: (() => void) | null = null;
  private readonly agent: Agent;
  private readonly timeoutMs: number;
  private readonly turnFailures: OutageLog;

  constructor(
    private readonly deps: {
      db: Knex;
      webhooks: WebhookService;
      notifications: NotificationService;
      log: Logger;
      now?: () => Date;
      timeoutMs?: number;
      /** Endpoints delivered at once by this instance. */
      concurrency?: number;
    },
  ) {
    this.timeoutMs = deps.timeoutMs ?? INTEGRATIONS.webhookTimeoutSeconds * 1000;
    this.turnFailures = new OutageLog(deps.log, 'the integration webhook worker');
    this.agent = new Agent({
      connect: guardedConnector(deps.webhooks.policy, this.timeoutMs),
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
      keepAliveTimeout: 10_000,
    });
    deps.webhooks.onWork = () => this.notify();
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  notify(): void {
    this.waker?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.notify();
    await this.loop;
    await this.agent.close();
  }

  private async run(): Promise<void> {
    while (this.running) {
      let busy = false;
      try {
        busy = (await this.expandOutbox()) > 0;
        busy = (await this.deliverDue()) > 0 || busy;
        this.turnFailures.recovered();
      } catch (error) {
        this.turnFailures.failed(error);
      }
      if (!busy && this.running) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.max(IDLE_POLL_MS, this.turnFailures.pauseMs()));
          this.waker = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.waker = null;
      }
    }
  }

  /** Turns a few outbox rows into deliveries; answers how many rows it took. */
  async expandOutbox(): Promise<number> {
    // Most turns find nothing: look without a transaction first (SQLite has one connection).
    if (!(await this.deps.db('webhook_outbox').first('id'))) return 0;
    return this.deps.db.transaction(async (trx) => {
      let query = trx('webhook_outbox').orderBy('id').limit(OUTBOX_ROWS_PER_TURN);
      query = forUpdateSkipLocked(query, this.deps.db);
      const rows = (await query) as OutboxRow[];
      if (rows.length === 0) return 0;
      const deliveries: Record<string, unknown>[] = [];
      const now = this.now();
      for (const row of rows) deliveries.push(...(await this.deliveriesFor(trx, row, now)));
      for (let start = 0; start < deliveries.length; start += 200) {
        await trx('webhook_deliveries').insert(deliveries.slice(start, start + 200)).onConflict(['endpointId', 'eventId']).ignore();
      }
      await trx('webhook_outbox')
        .whereIn(
          'id',
          rows.map((r) => r.id),
        )
        .delete();
      return rows.length;
    });
  }

  private async subscribers(trx: Knex.Transaction, userIds: readonly number[], type: string): Promise<WebhookEndpointRow[]> {
    if (userIds.length === 0) return [];
    const endpoints = (await trx('webhook_endpoints').whereIn('userId', userIds).where({ status: 'active' })) as WebhookEndpointRow[];
    return endpoints.filter((endpoint) => (JSON.parse(endpoint.events) as string[]).includes(type));
  }

  private async deliveriesFor(trx: Knex.Transaction, row: OutboxRow, now: Date): Promise<Record<string, unknown>[]> {
    const createdAt = new Date(row.createdAt).toISOString();
    const byUser = new Map<number, { id: string; type: string; created_at: string; data: unknown }[]>();
    if (row.messageIds) {
      const ids = JSON.parse(row.messageIds) as number[];
      for (let start = 0; start < ids.length; start += 900) {
        const found = (await trx({ m: 'messages' })
          .join({ c: 'campaigns' }, 'c.id', 'm.campaign_id')
          .whereIn('m.id', ids.slice(start, start + 900))
          .orderBy('m.id')
          .select([...PUBLIC_MESSAGE_COLUMNS, 'm.user_id'])) as (PublicMessageRow & { userId: number })[];
        for (const message of found) {
          const events = byUser.get(Number(message.userId)) ?? [];
          events.push({ id: newEventId(), type: row.type, created_at: createdAt, data: toPublicMessage(message) });
          byUser.set(Number(message.userId), events);
        }
      }
    } else if (row.userId !== null) {
      byUser.set(Number(row.userId), [{ id: row.eventId ?? newEventId(), type: row.type, created_at: createdAt, data: JSON.parse(row.data ?? '{}') as unknown }]);
    }
    const out: Record<string, unknown>[] = [];
    for (const endpoint of await this.subscribers(trx, [...byUser.keys()], row.type)) {
      const events = byUser.get(Number(endpoint.userId)) ?? [];
      if (endpoint.batch) {
        for (let start = 0; start < events.length; start += WEBHOOK_BATCH_MAX_EVENTS) out.push(deliveryRow(endpoint, events.slice(start, start + WEBHOOK_BATCH_MAX_EVENTS), now, true));
      } else {
        for (const event of events) out.push(deliveryRow(endpoint, [event], now));
      }
    }
    return out;
  }

  /** Sends due deliveries of several endpoints at once; answers how many were attempted. */
  async deliverDue(): Promise<number> {
    const nowIso = this.now().toISOString();
    // From the endpoints (few) to their queues, not from the deliveries: a campaign leaves
    // hundreds of thousands pending, and a distinct over them on every turn held SQLite's one
    // connection long enough to slow the dispatcher to half its rate.
    const due = (await this.deps
      .db('webhook_endpoints as e')
      .where('e.status', 'active')
      .where((q) => q.whereNull('e.leaseUntil').orWhere('e.leaseUntil', '<', nowIso))
      .whereExists((q) => q.select(this.deps.db.raw('1')).from('webhook_deliveries as d').whereRaw('d.endpoint_id = e.id').where('d.state', 'pending').where('d.nextAttemptAt', '<=', nowIso))
      .limit(ENDPOINTS_PER_TURN)
      .select({ endpointId: 'e.id' })) as { endpointId: number }[];
    let attempted = 0;
    await inParallel(due, this.deps.concurrency ?? 8, async (d) => {
      attempted += await this.deliverEndpoint(Number(d.endpointId));
    });
    return attempted;
  }

  private async deliverEndpoint(endpointId: number): Promise<number> {
    const db = this.deps.db;
    const token = randomBytes(12).toString('hex');
    const leaseUntil = () => new Date(this.now().getTime() + LEASE_MS).toISOString();
    const leased = await db('webhook_endpoints')
      .where({ id: endpointId, status: 'active' })
      .where((q) => q.whereNull('leaseUntil').orWhere('leaseUntil', '<', this.now().toISOString()))
      .update({ leaseUntil: leaseUntil(), leaseToken: token });
    if (leased === 0) return 0;
    let attempted = 0;
    let renewedAt = Date.now();
    try {
      // A page of the endpoint's pending deliveries at a time, sent in order; the successes of a
      // page are recorded in one transaction (a crash before it sends them again: at least once).
      // The first failure is recorded at once and holds the rest behind its retry.
      pages: while (attempted < DELIVERIES_PER_LEASE && this.running) {
        const endpoint = (await db('webhook_endpoints').where({ id: endpointId, leaseToken: token, status: 'active' }).first()) as WebhookEndpointRow | undefined;
        if (!endpoint) break;
        const page = (await db('webhook_deliveries')
          .where({ endpointId, state: 'pending' })
          .orderBy('id')
          .limit(Math.min(DELIVERIES_PER_PAGE, DELIVERIES_PER_LEASE - attempted))) as WebhookDeliveryRow[];
        // Only the due prefix of the page is sent: a delivery waiting for its retry holds the rest.
        const nowMs = this.now().getTime();
        const dueCount = page.findIndex((d) => d.nextAttemptAt !== null && new Date(d.nextAttemptAt).getTime() > nowMs);
        const sendable = dueCount === -1 ? page : page.slice(0, dueCount);
        const delivered: { delivery: WebhookDeliveryRow; outcome: DeliveryOutcome }[] = [];
        let stop = sendable.length < page.length || page.length === 0;
        try {
          // Order is promised per message, so the events of one message go one after another while
          // different messages go side by side (a batch endpoint's arrays mix messages: one line).
          const lines = [...groupBy(sendable, (d) => (endpoint.batch ? 'all' : messageOf(d))).values()];
          await inParallel(lines, DELIVERIES_IN_FLIGHT, async (line) => {
            for (const delivery of line) {
              if (!this.running) {
                stop = true;
                return;
              }
              const outcome = await this.send(endpoint, delivery);
              attempted += 1;
              if (outcome.status === null || outcome.status < 200 || outcome.status >= 300) {
                await this.recordFailed(endpoint, delivery, outcome);
                stop = true;
                return;
              }
              delivered.push({ delivery, outcome });
              // A slow receiver must not outlive the lease: another instance would take the endpoint.
              if (Date.now() - renewedAt > LEASE_MS / 3) {
                renewedAt = Date.now();
                await db('webhook_endpoints').where({ id: endpointId, leaseToken: token }).update({ leaseUntil: leaseUntil() });
              }
            }
          });
        } finally {
          await this.recordSucceeded(endpoint, delivered);
        }
        if (stop || page.length < DELIVERIES_PER_PAGE) break pages;
        await db('webhook_endpoints').where({ id: endpointId, leaseToken: token }).update({ leaseUntil: leaseUntil() });
        renewedAt = Date.now();
      }
    } finally {
      await db('webhook_endpoints').where({ id: endpointId, leaseToken: token }).update({ leaseUntil: null, leaseToken: null });
    }
    return attempted;
  }

  /** Deliveries answered 2xx: one transaction for all of them (their rows, their attempts, the endpoint healthy again). */
  private async recordSucceeded(endpoint: WebhookEndpointRow, delivered: readonly { delivery: WebhookDeliveryRow; outcome: DeliveryOutcome }[]): Promise<void> {
    if (delivered.length === 0) return;
    const nowIso = this.now().toISOString();
    await this.deps.db.transaction(async (trx) => {
      for (const { delivery, outcome } of delivered) {
        await trx('webhook_deliveries').where({ id: delivery.id }).update({
          state: 'succeeded',
          attempts: delivery.attempts + 1,
          nextAttemptAt: null,
          lastAttemptAt: nowIso,
          lastStatus: outcome.status,
          lastLatencyMs: outcome.latencyMs,
          lastError: null,
          updatedAt: nowIso,
        });
      }
      await trx('webhook_attempts').insert(
        delivered.map(({ delivery, outcome }) => ({ deliveryId: delivery.id, attemptedAt: nowIso, httpStatus: outcome.status, latencyMs: outcome.latencyMs, error: null, nextRetryAt: null })),
      );
      if (endpoint.failingSince !== null) await trx('webhook_endpoints').where({ id: endpoint.id }).update({ failingSince: null, updatedAt: nowIso });
    });
  }

  /** One signed POST; never follows a redirect (a 3xx counts as a failure). */
  async send(endpoint: WebhookEndpointRow, delivery: Pick<WebhookDeliveryRow, 'eventId' | 'body'>): Promise<DeliveryOutcome> {
    const started = performance.now();
    try {
      const secret = this.deps.webhooks.secretOf(endpoint);
      const response = await request(endpoint.url, {
        method: 'POST',
        dispatcher: this.agent,
        body: delivery.body,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Sandesh-Webhooks/1.0',
          [EVENT_ID_HEADER]: delivery.eventId,
          [SIGNATURE_HEADER]: signatureHeader(secret, delivery.body, this.now()),
        },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      // Read a little of the answer (then drop it): the socket is reused only once the body is consumed.
      let read = 0;
      for await (const chunk of response.body) {
        read += (chunk as Buffer).length;
        if (read > RESPONSE_BYTES_READ) break;
      }
      if (read > RESPONSE_BYTES_READ) response.body.destroy();
      return { status: response.statusCode, latencyMs: Math.round(performance.now() - started), error: null };
    } catch (error) {
      const text = error instanceof Error ? `${(error as { code?: string }).code ?? error.name}: ${error.message}` : String(error);
      return { status: null, latencyMs: Math.round(performance.now() - started), error: text.slice(0, 300) };
    }
  }

  /** A failed attempt: retried with backoff until 24 hours have passed; an endpoint failing for 3 days is disabled. */
  private async recordFailed(endpoint: WebhookEndpointRow, delivery: WebhookDeliveryRow, outcome: DeliveryOutcome): Promise<void> {
    const now = this.now();
    const nowIso = now.toISOString();
    const attempts = delivery.attempts + 1;
    const giveUpAt = new Date(delivery.createdAt).getTime() + INTEGRATIONS.webhookRetryHours * 3_600_000;
    const nextAt = new Date(now.getTime() + retryDelayMs(attempts));
    const retrying = nextAt.getTime() <= giveUpAt;
    const state = retrying ? 'pending' : 'failed';
    let disable = false;
    await this.deps.db.transaction(async (trx) => {
      await trx('webhook_deliveries')
        .where({ id: delivery.id })
        .update({
          state,
          attempts,
          nextAttemptAt: retrying ? nextAt.toISOString() : null,
          lastAttemptAt: nowIso,
          lastStatus: outcome.status,
          lastLatencyMs: outcome.latencyMs,
          lastError: outcome.error,
          updatedAt: nowIso,
        });
      await trx('webhook_attempts').insert({
        deliveryId: delivery.id,
        attemptedAt: nowIso,
        httpStatus: outcome.status,
        latencyMs: outcome.latencyMs,
        error: outcome.error,
        nextRetryAt: retrying ? nextAt.toISOString() : null,
      });
      if (endpoint.failingSince === null) {
        await trx('webhook_endpoints').where({ id: endpoint.id }).whereNull('failingSince').update({ failingSince: nowIso, updatedAt: nowIso });
        return;
      }
      if (now.getTime() - new Date(endpoint.failingSince).getTime() >= INTEGRATIONS.webhookDisableAfterDays * DAY_MS) {
        disable = (await trx('webhook_endpoints').where({ id: endpoint.id, status: 'active' }).update({ status: 'disabled', disabledAt: nowIso, updatedAt: nowIso })) > 0;
      }
    });
    if (disable) {
      await this.deps.notifications.post(Number(endpoint.userId), {
        dedupeKey: `webhook_endpoint:${endpoint.id}:disabled:${nowIso.slice(0, 10)}`,
        type: 'error',
        kind: 'webhook_endpoint_disabled',
        title: messages.integrations.webhookEndpointDisabledTitle,
        message: fillMessage(messages.integrations.webhookEndpointDisabled, { url: endpoint.url, days: INTEGRATIONS.webhookDisableAfterDays }),
      });
    }
  }
}

/** The message a single-event delivery is about, or the delivery itself for any other event. */
function messageOf(delivery: WebhookDeliveryRow): string {
  if (delivery.eventType.startsWith('message.')) {
    const messageId = (JSON.parse(delivery.body) as { data?: { message_id?: unknown } }).data?.message_id;
    if (typeof messageId === 'string') return messageId;
  }
  return `delivery:${delivery.id}`;
}

function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

/** Runs `work` over `items` with at most `limit` at once. */
async function inParallel<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++] as T);
    }),
  );
}
