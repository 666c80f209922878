/**
 * Webhook ingestion: status events are stored as the webhook is acknowledged (one insert per
 * POST), then applied to messages in batches. Events whose message is not known yet (the
 * provider's `sent` can overtake the dispatcher's write of the provider id) are tried again with
 * backoff for a few minutes before being dropped. Applying and deleting happen in one
 * transaction, and on PostgreSQL each instance takes different events (SKIP LOCKED).
 *
 * An event carrying our send reference (`biz_opaque_callback_data`) first settles a message whose
 * send ended without an answer (`unknown`): it takes the provider's id, then the event applies as
 * usual. Such events are kept longer, so they can outwait a stalled worker's lease.
 */
import type { Knex } from 'knex';
import { forUpdateSkipLocked } from '../db/dialect';
import { BatchApplier } from '../db/batchApplier';
import type { Logger } from '../logger';
import { parseSendReference } from './claims';
import { withConflictRetry, type MessageOutcomes } from './messageOutcomes';
import type { MessageStatus, StatusEvent } from './providers/types';

const APPLY_BATCH = 2_000;
const RETRY_SWEEP_MS = 1_000;
const MAX_TRIES = 10;
/**
 * Events with our reference may belong to a send whose worker stalled or died: they are tried
 * every 2 s at most, for about as long as the default settle window, so they settle the message
 * soon after it becomes `unknown` and before it would be sent again.
 */
const MAX_TRIES_WITH_REFERENCE = 300;
const REFERENCE_RETRY_CAP_MS = 2_000;
const RETRY_CAP_MS = 30_000;

interface StoredEvent {
  id: number;
  providerMessageId: string;
  status: MessageStatus;
  occurredAt: string | Date;
  errorCode: number | null;
  errorMessage: string | null;
  /** Meta's error object as reported (StatusEvent['error']), JSON. */
  errorJson?: string | null;
  callbackData: string | null;
  tries: number;
  phoneNumberId: string | null;
  refundTrusted: boolean | number;
  pricingBillable: boolean | number | null;
  pricingCategory: string | null;
  pricingModel: string | null;
  pricingType: string | null;
}

/** The error of a stored event: Meta's object when it was kept whole, else its code and text. */
function storedError(row: StoredEvent): NonNullable<StatusEvent['error']> {
  const fallback = { code: row.errorCode ?? 0, title: row.errorMessage ?? 'Failed' };
  if (!row.errorJson) return fallback;
  try {
    const parsed = JSON.parse(row.errorJson) as NonNullable<StatusEvent['error']>;
    return typeof parsed.code === 'number' && typeof parsed.title === 'string' ? parsed : fallback;
  } catch {
    return fallback;
  }
}

export class StatusIngest {
  private readonly applier: BatchApplier;

  constructor(private readonly deps: { db: Knex; outcomes: MessageOutcomes; log: Logger }) {
    this.applier = new BatchApplier({ applyOnce: () => this.flushOnce(), batchSize: APPLY_BATCH, log: deps.log, what: 'applying status events', sweepMs: RETRY_SWEEP_MS });
  }

  /** Starts applying (and retrying) stored events in the background. */
  start(): void {
    this.applier.start();
  }

  async stop(): Promise<void> {
    await this.applier.stop();
  }

  /** Applies everything stored before the call (tests, bench, shutdown). */
  drain(): Promise<void> {
    return this.applier.drain();
  }

  /** Stores the events (the webhook is answered after this) and schedules their application. */
  async store(events: readonly StatusEvent[]): Promise<void> {
    if (events.length === 0) return;
    const nowIso = new Date().toISOString();
    const rows = events.map((event) => ({
      providerMessageId: event.providerMessageId.slice(0, 128),
      status: event.status,
      occurredAt: event.timestamp.toISOString(),
      errorCode: event.error?.code ?? null,
      errorMessage: event.error ? [event.error.title, event.error.details].filter(Boolean).join(': ').slice(0, 500) : null,
      errorJson: event.error ? JSON.stringify(event.error).slice(0, 8000) : null,
      callbackData: event.callbackData ?? null,
      tries: 0,
      phoneNumberId: event.phoneNumberId?.slice(0, 128) ?? null,
      refundTrusted: event.refundTrusted === true,
      pricingBillable: event.pricing ? event.pricing.billable : null,
      pricingCategory: event.pricing?.category?.slice(0, 40) ?? null,
      pricingModel: event.pricing?.pricingModel?.slice(0, 20) ?? null,
      pricingType: event.pricing?.type?.slice(0, 40) ?? null,
      availableAt: nowIso,
      createdAt: nowIso,
    }));
    for (let start = 0; start < rows.length; start += 500) await this.deps.db('status_events').insert(rows.slice(start, start + 500));
    this.applier.stored();
  }

  /** One batch; answers how many events it took. */
  async flushOnce(): Promise<number> {
    const nowIso = new Date().toISOString();
    let taken = 0;
    // Instances applying events for the same messages, and the dispatchers writing their results,
    // can deadlock; the batch's transaction rolls back whole, so it simply runs again.
    await withConflictRetry(() => this.deps.db.transaction(async (trx) => {
      let query = trx('status_events').where('availableAt', '<=', nowIso).orderBy('id').limit(APPLY_BATCH);
      query = forUpdateSkipLocked(query, this.deps.db);
      const rows = (await query.select('*')) as StoredEvent[];
      taken = rows.length;
      if (rows.length === 0) return;
      const events = rows.map((row) => ({
        providerMessageId: row.providerMessageId,
        status: row.status,
        timestamp: new Date(row.occurredAt),
        recipient: '',
        // Applied only to messages sent from the number whose secret signed the event.
        phoneNumberId: row.phoneNumberId,
        refundTrusted: Boolean(row.refundTrusted),
        ...(row.status === 'failed' ? { error: storedError(row) } : {}),
      }));
      const references = rows.flatMap((row) => {
        const reference = parseSendReference(row.callbackData);
        return reference ? [{ ...reference, providerMessageId: row.providerMessageId, at: new Date(row.occurredAt) }] : [];
      });
      if (references.length > 0) await this.deps.outcomes.settleByReference(trx, references);
      const { unmatched } = await this.deps.outcomes.applyStatusEvents(events, trx);
      await applyPricing(trx, rows);
      const unmatchedIds = new Set(unmatched.map((e) => e.providerMessageId));
      const ids = rows.map((r) => r.id);
      for (let start = 0; start < ids.length; start += 900) await trx('status_events').whereIn('id', ids.slice(start, start + 900)).delete();
      const retry = rows.filter((r) => unmatchedIds.has(r.providerMessageId) && r.tries + 1 < (r.callbackData ? MAX_TRIES_WITH_REFERENCE : MAX_TRIES));
      const dropped = rows.filter((r) => unmatchedIds.has(r.providerMessageId)).length - retry.length;
      if (dropped > 0) this.deps.log.warn({ dropped }, 'status events for unknown messages dropped after retries');
      if (retry.length > 0) {
        const later = (row: Pick<StoredEvent, 'callbackData' | 'tries'>) => new Date(Date.now() + Math.min(row.callbackData ? REFERENCE_RETRY_CAP_MS : RETRY_CAP_MS, 500 * 2 ** Math.min(row.tries, 16))).toISOString();
        const again = retry.map(({ id: _id, ...row }) => ({ ...row, refundTrusted: Boolean(row.refundTrusted), pricingBillable: row.pricingBillable === null ? null : Boolean(row.pricingBillable), occurredAt: new Date(row.occurredAt).toISOString(), tries: row.tries + 1, availableAt: later(row), createdAt: nowIso }));
        for (let start = 0; start < again.length; start += 500) await trx('status_events').insert(again.slice(start, start + 500));
      }
    }));
    return taken;
  }
}

/**
 * Keeps Meta's `pricing` of each status on its message, for reconciliation with what we charged
 * (reports/reconciliation.ts). Scoped like the status itself: only messages of the owners of the
 * number whose secret signed the event. One update per distinct pricing, so a batch of a campaign's
 * statuses (all alike) costs one statement per few hundred messages.
 */
async function applyPricing(trx: Knex.Transaction, rows: readonly StoredEvent[]): Promise<void> {
  const groups = new Map<string, { values: Record<string, unknown>; phoneNumberId: string; ids: string[] }>();
  for (const row of rows) {
    if (row.pricingBillable === null && row.pricingCategory === null && row.pricingModel === null && row.pricingType === null) continue;
    if (!row.phoneNumberId) continue;
    const values = {
      metaBillable: row.pricingBillable === null ? null : Boolean(row.pricingBillable),
      metaCategory: row.pricingCategory,
      metaPricingModel: row.pricingModel,
      metaPricingType: row.pricingType,
    };
    const key = JSON.stringify([row.phoneNumberId, values]);
    const group = groups.get(key) ?? { values, phoneNumberId: row.phoneNumberId, ids: [] as string[] };
    group.ids.push(row.providerMessageId);
    groups.set(key, group);
  }
  for (const group of groups.values()) {
    const owners = trx('whatsapp_numbers').where({ phoneNumberId: group.phoneNumberId }).select('userId');
    for (let start = 0; start < group.ids.length; start += 500) {
      await trx('messages').whereIn('providerMessageId', group.ids.slice(start, start + 500)).whereIn('userId', owners).update(group.values);
    }
  }
}
