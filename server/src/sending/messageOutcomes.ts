/**
 * Every write that moves a message after acceptance: the dispatcher's send results, the
 * provider's status events, refunds of finally failed messages, opt-outs and campaign
 * completion. Statuses only move forward (the rank guard is in the SQL itself, so two instances
 * applying events for one message cannot move it back), and a message is refunded at most once
 * (the `refunded` flag flips in the same transaction as the ledger row).
 */
import type { TSuppressionSource } from '@shared/schemas/suppressions';
import type { Knex } from 'knex';
import { afterCommit } from '../db/knex';
import { forShareIfSupported } from '../db/dialect';
import { messages as catalogue } from '@shared/messages';
import type { Logger } from '../logger';
import type { WalletService } from '../wallet/service';
import type { MessageStatus, MetaErrorFields, StatusEvent } from './providers/types';
import { UNFINISHED_STATUSES, type MessageRow } from '../db/rows/messages';
import type { CampaignRow } from '../db/rows/campaigns';
import type { WhatsappNumberRow } from '../db/rows/whatsappNumbers';
import type { Enqueuer } from './dispatchJobs';

/** Cloud API code for a recipient who stopped marketing messages from this business. */
export const OPTED_OUT_ERROR_CODE = 131050;

const RANK_SQL = `case status when 'queued' then 0 when 'sending' then 1 when 'unknown' then 1 when 'sent' then 2 when 'delivered' then 3 when 'read' then 4 else 9 end`;
/** `failed` only beats `sending`/`sent` (Meta never fails a delivered message). */
const STATUS_RANK: Record<MessageStatus, number> = { sent: 2, delivered: 3, failed: 3, read: 4 };

/** Every result carries the claim's fencing token: it is written only while the row still holds it. */
export interface SendSuccess {
  id: number;
  claimToken: string;
  providerMessageId: string;
}

export interface SendRetry {
  id: number;
  claimToken: string;
  nextAttemptAt: Date;
  code: number;
  title: string;
  error?: MetaErrorFields;
  /**
   * The try does not count against DISPATCH_MAX_ATTEMPTS: the refusal was the sender's or the
   * template's (a stopped number, a paused template), not this message's.
   */
  uncounted?: boolean;
}

export interface SendFailure {
  id: number;
  claimToken: string;
  code: number;
  title: string;
  /** Meta's error object beyond the code and title, kept on the message. */
  error?: MetaErrorFields;
}

/** The message columns of Meta's error fields (null where the error did not carry one). */
export function metaErrorColumns(title: string | null, error: MetaErrorFields | undefined): Record<string, string | number | boolean | null> {
  return {
    errorSubcode: error?.subcode ?? null,
    errorTitle: title === null ? null : title.slice(0, 500),
    errorDetails: error?.details?.slice(0, 4000) ?? null,
    errorTransient: error?.isTransient ?? null,
    errorFbtraceId: error?.fbtraceId?.slice(0, 100) ?? null,
  };
}

/** A send without an answer that the provider may have taken: parked until `settleBy`. */
export interface SendUnknown {
  id: number;
  claimToken: string;
  code: number;
  title: string;
  settleBy: Date;
}


type RawConnection = { prepare(sql: string): { run(...params: unknown[]): { changes: number } } } | { query(text: string, values: unknown[]): Promise<{ rows: unknown[]; rowCount: number | null }> };

export async function rawConnection(trx: Knex.Transaction): Promise<RawConnection> {
  return (await (trx.client as unknown as { acquireConnection(): Promise<RawConnection> }).acquireConnection()) as RawConnection;
}

/** PostgreSQL's deadlock and serialization failures: the whole transaction can simply run again. */
function isRetryableConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '40P01' || code === '40001';
}

/**
 * Runs a write transaction, again after a deadlock (instances writing results, renewing leases and
 * applying statuses lock overlapping rows): every statement in it is conditional, so a rerun after
 * the rollback is exact. A result lost to a deadlock would otherwise leave its message unrecorded.
 */
export async function withConflictRetry<T>(run: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (attempt >= attempts || !isRetryableConflict(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10 * attempt + Math.random() * 20));
    }
  }
}

/** What the writer of a batch of results knows about it (the dispatcher, from its claims). */
export interface ResultsWritten {
  /** Each message's campaign; without it they are read back from the messages. */
  campaignOf?: (messageId: number) => number | undefined;
  /**
   * False when the writer still holds other messages of these campaigns, which it will write
   * later: the campaigns cannot be complete yet, and the writer looks once it holds none (see
   * `MessageDispatcher.dispatch`). The look is a read of the campaign's open messages, and was one
   * statement per result write.
   */
  checkCompletion?: boolean;
}

/** Which messages reached which status, in one batch of results or status events. */
export type MessageStatusChanges = readonly { status: 'sent' | 'delivered' | 'read' | 'failed'; messageIds: readonly number[] }[];

export class MessageOutcomes {
  constructor(private readonly deps: { db: Knex; wallet: WalletService; jobs: Pick<Enqueuer, 'requeue'>; log: Logger }) {}

  /** Announced changes are already stored: a listener's failure is logged, not the write's. */
  private readonly listenerFailed = (error: unknown): void => {
    this.deps.log.error({ err: error }, 'a status listener failed');
  };


  /**
   * Results of one dispatched batch, written together, each only where the row still carries the
   * claim's token (a worker whose claim was taken writes nothing). A handed row whose lease lapsed
   * may have been moved to `unknown` meanwhile: its answer, arriving late, still settles it.
   */
  async recordSendResults(results: { sent: SendSuccess[]; retry: SendRetry[]; failed: SendFailure[]; unknown?: SendUnknown[] }, written: ResultsWritten = {}): Promise<void> {
    const nowIso = new Date().toISOString();
    const campaigns = new Set<number>();
    const unknown = results.unknown ?? [];
    // Rows in id order: concurrent writers then lock them in the same order (fewer deadlocks).
    const sent = [...results.sent].sort((x, y) => x.id - y.id);
    let failedNow: number[] = [];
    const resultChanges = (): MessageStatusChanges => [
      { status: 'sent', messageIds: sent.map((r) => r.id) },
      { status: 'failed', messageIds: failedNow },
    ];
    await withConflictRetry(() => this.deps.db.transaction(async (trx) => {
      failedNow = [];
      if (sent.length > 0) {
        const connection = await rawConnection(trx);
        if ('prepare' in connection) {
          const statement = connection.prepare(
            `update messages set status = 'sent', provider_message_id = ?, sent_at = ?, lease_until = null, error_code = null, error_message = null, updated_at = ?
              where id = ? and claim_token = ? and status in ('sending', 'unknown')`,
          );
          for (const row of sent) statement.run(row.providerMessageId, nowIso, nowIso, row.id, row.claimToken);
        } else {
          await connection.query(
            `update messages as m set status = 'sent', provider_message_id = t.pid, sent_at = $1, lease_until = null, error_code = null, error_message = null, updated_at = $1
               from unnest($2::bigint[], $3::text[], $4::text[]) as t(id, pid, token) where m.id = t.id and m.claim_token = t.token and m.status in ('sending', 'unknown')`,
            [nowIso, sent.map((r) => r.id), sent.map((r) => r.providerMessageId), sent.map((r) => r.claimToken)],
          );
        }
      }
      for (const row of unknown) {
        await trx('messages')
          .where({ id: row.id, claimToken: row.claimToken, status: 'sending' })
          .update({ status: 'unknown', nextAttemptAt: row.settleBy.toISOString(), leaseUntil: null, errorCode: row.code, errorMessage: row.title.slice(0, 500), updatedAt: nowIso });
      }
      // A retry of a campaign cancelled meanwhile is not queued again: it ends as cancelled, refunded.
      let retries = results.retry;
      if (retries.length > 0) {
        // Under a share lock of the campaigns, as in the dispatcher's hold: a cancel cannot slip between.
        let ownersQuery = trx('messages as m')
          .join('campaigns as c', 'c.id', 'm.campaignId')
          .whereIn(
            'm.id',
            retries.map((r) => r.id),
          )
          .select('m.id', 'm.campaignId', 'm.claimToken', 'c.status');
        ownersQuery = forShareIfSupported(ownersQuery, this.deps.db, 'c');
        const tokenOf = new Map(retries.map((r) => [r.id, r.claimToken]));
        const owners = ((await ownersQuery) as (Pick<MessageRow, 'id' | 'campaignId' | 'claimToken'> & Pick<CampaignRow, 'status'>)[]).filter((o) => o.claimToken === tokenOf.get(Number(o.id)));
        const cancelledOwners = owners.filter((o) => o.status === 'cancelled');
        if (cancelledOwners.length > 0) {
          const byCampaign = new Map<number, number[]>();
          for (const owner of cancelledOwners) byCampaign.set(owner.campaignId, [...(byCampaign.get(owner.campaignId) ?? []), Number(owner.id)]);
          // Answered (with an error), so no longer in flight: as if never handed.
          await trx('messages')
            .whereIn(
              'id',
              cancelledOwners.map((o) => Number(o.id)),
            )
            .where({ status: 'sending' })
            .update({ handedAt: null });
          for (const [campaignId, ids] of byCampaign) await this.failCancelled(trx, campaignId, 'sending', ids);
        }
        const requeue = new Set(owners.filter((o) => o.status !== 'cancelled').map((o) => Number(o.id)));
        retries = retries.filter((r) => requeue.has(r.id));
      }
      const requeued: SendRetry[] = [];
      for (const row of retries) {
        const changed = await trx('messages')
          .where({ id: row.id, claimToken: row.claimToken })
          .whereIn('status', ['sending', 'unknown'])
          .update({
            status: 'queued',
            nextAttemptAt: row.nextAttemptAt.toISOString(),
            leaseUntil: null,
            claimToken: null,
            handedAt: null,
            errorCode: row.code,
            errorMessage: row.title.slice(0, 500),
            ...metaErrorColumns(row.title, row.error),
            ...(row.uncounted ? { attempts: trx.raw('attempts - 1') } : {}),
            updatedAt: nowIso,
          });
        if (changed > 0) requeued.push(row);
      }
      if (requeued.length > 0) await this.deps.jobs.requeue(trx, requeued);
      if (results.failed.length > 0) {
        const failedIds: number[] = [];
        for (const row of results.failed) {
          const changed = await trx('messages')
            .where({ id: row.id, claimToken: row.claimToken })
            .whereIn('status', ['sending', 'unknown'])
            .update({ status: 'failed', failedAt: nowIso, leaseUntil: null, errorCode: row.code, errorMessage: row.title.slice(0, 500), ...metaErrorColumns(row.title, row.error), updatedAt: nowIso });
          if (changed > 0) failedIds.push(row.id);
        }
        failedNow = failedIds;
        const failedSet = new Set(failedIds);
        await this.suppressOptedOut(trx, results.failed.filter((r) => r.code === OPTED_OUT_ERROR_CODE && failedSet.has(r.id)).map((r) => r.id));
        for (const id of await this.refundFailed(trx, failedIds)) campaigns.add(id);
      }
      const settled = [...results.sent, ...results.failed, ...unknown].map((r) => r.id);
      if (written.campaignOf) {
        for (const id of settled) {
          const campaignId = written.campaignOf(id);
          if (campaignId !== undefined) campaigns.add(campaignId);
        }
      } else {
        const touched = await trx('messages').whereIn('id', settled).distinct('campaignId');
        for (const row of touched as Pick<MessageRow, 'campaignId'>[]) campaigns.add(row.campaignId);
      }
      await this.recordMessageStatuses?.(trx, resultChanges());
    }));
    this.onMessageStatuses?.(resultChanges());
    await this.completeCampaigns([...campaigns], this.deps.db, { check: written.checkCompletion ?? true });
  }

  /**
   * Status events carrying our reference settle sends whose answer never reached us: the message
   * (still `unknown` under the same claim) takes the provider's id and counts as sent; the events
   * then apply as usual. Answers how many messages were settled.
   */
  async settleByReference(trx: Knex.Transaction, references: readonly { id: number; claimToken: string; providerMessageId: string; at: Date }[]): Promise<number> {
    return settleReferences(trx, references);
  }

  /**
   * Applies provider status events. Answers the ids of events that matched no message yet (the
   * provider may report `sent` before the dispatcher has stored the provider id): the caller
   * keeps those and tries them again.
   */
  async applyStatusEvents(events: readonly StatusEvent[], outer: Knex = this.deps.db): Promise<{ unmatched: StatusEvent[] }> {
    if (events.length === 0) return { unmatched: [] };
    const providerIds = [...new Set(events.map((e) => e.providerMessageId))];
    const nowIso = new Date().toISOString();
    const unmatched: StatusEvent[] = [];
    const campaigns = new Set<number>();
    const applied = new Map<MessageStatus, number[]>();
    const previousStatus = new Map<number, string>();
    // A message that went from sent to read in one batch was delivered too: each status it passed is reported.
    const noteApplied = (status: MessageStatus, id: number) => {
      const before = STATUS_RANK[previousStatus.get(id) as MessageStatus] ?? 0;
      for (const passed of status === 'failed' ? (['failed'] as const) : (['sent', 'delivered', 'read'] as const)) {
        if (STATUS_RANK[passed] <= before || STATUS_RANK[passed] > STATUS_RANK[status]) continue;
        const ids = applied.get(passed);
        if (ids) ids.push(id);
        else applied.set(passed, [id]);
      }
    };
    const appliedChanges = (): MessageStatusChanges => (['sent', 'delivered', 'read', 'failed'] as const).map((status) => ({ status, messageIds: applied.get(status) ?? [] }));
    await outer.transaction(async (trx) => {
      applied.clear();
      const found = new Map<string, { id: number; status: string; campaignId: number; senderPhoneNumberId: string }>();
      for (let start = 0; start < providerIds.length; start += 900) {
        const rows = (await trx('messages')
          .join('campaigns', 'campaigns.id', 'messages.campaignId')
          .join('whatsapp_numbers', 'whatsapp_numbers.id', 'campaigns.senderNumberId')
          .whereIn('messages.providerMessageId', providerIds.slice(start, start + 900))
          .select('messages.id', 'messages.status', 'messages.campaignId', 'messages.providerMessageId', 'whatsapp_numbers.phoneNumberId as senderPhoneNumberId')) as (Pick<MessageRow, 'id' | 'status' | 'campaignId'> & {
          providerMessageId: string;
          senderPhoneNumberId: WhatsappNumberRow['phoneNumberId'];
        })[];
        for (const row of rows) found.set(row.providerMessageId, row);
      }
      const refundable = new Set<number>();
      interface Change {
        id: number;
        rank: number;
        status: MessageStatus;
        sentAt: string | null;
        deliveredAt: string | null;
        readAt: string | null;
        failedAt: string | null;
        errorCode: number | null;
        errorMessage: string | null;
      }
      const changes = new Map<number, Change>();
      const errorOf = new Map<number, NonNullable<StatusEvent['error']>>();
      for (const event of events) {
        const message = found.get(event.providerMessageId);
        if (!message) {
          unmatched.push(event);
          continue;
        }
        // A number's secret speaks for messages sent from that number only.
        if (event.phoneNumberId && event.phoneNumberId !== message.senderPhoneNumberId) continue;
        previousStatus.set(message.id, message.status);
        if (event.status === 'failed' && event.refundTrusted !== false) refundable.add(message.id);
        const at = event.timestamp.toISOString();
        const change = changes.get(message.id) ?? { id: message.id, rank: 0, status: event.status, sentAt: null, deliveredAt: null, readAt: null, failedAt: null, errorCode: null, errorMessage: null };
        if (event.status === 'failed') {
          if (event.error) errorOf.set(message.id, event.error);
          change.failedAt = at;
          change.errorCode = event.error?.code ?? null;
          change.errorMessage = (event.error ? [event.error.title, event.error.details].filter(Boolean).join(': ') : 'Failed').slice(0, 500);
        } else {
          // Reaching a later state implies the earlier ones, at the latest at the same moment.
          change.sentAt ??= at;
          if (event.status === 'delivered' || event.status === 'read') change.deliveredAt ??= at;
          if (event.status === 'read') change.readAt = at;
        }
        if (STATUS_RANK[event.status] > change.rank || (event.status === 'failed' && change.rank <= 2)) {
          change.rank = STATUS_RANK[event.status];
          change.status = event.status;
        }
        changes.set(message.id, change);
        campaigns.add(message.campaignId);
      }
      // In id order, like the dispatcher's writes: rows locked in one order do not deadlock.
      const list = [...changes.values()].sort((x, y) => x.id - y.id);
      if (list.length === 0) return;
      const connection = await rawConnection(trx);
      const failedIds: number[] = [];
      if ('prepare' in connection) {
        const statement = connection.prepare(
          `update messages set status = ?, sent_at = coalesce(sent_at, ?), delivered_at = coalesce(delivered_at, ?), read_at = coalesce(read_at, ?),
              failed_at = coalesce(?, failed_at), error_code = coalesce(?, error_code), error_message = coalesce(?, error_message), lease_until = null, updated_at = ?
            where id = ? and ${RANK_SQL} < ? and not (? = 'failed' and ${RANK_SQL} > 2)`,
        );
        for (const c of list) {
          const result = statement.run(c.status, c.status === 'failed' ? null : c.sentAt, c.status === 'failed' ? null : c.deliveredAt, c.status === 'failed' ? null : c.readAt, c.status === 'failed' ? c.failedAt : null, c.status === 'failed' ? c.errorCode : null, c.status === 'failed' ? c.errorMessage : null, nowIso, c.id, c.rank, c.status);
          if (result.changes > 0 && c.status !== 'failed') noteApplied(c.status, c.id);
          if (c.status === 'failed' && result.changes > 0) failedIds.push(c.id);
        }
      } else {
        const result = await connection.query(
          `update messages as m set status = t.status,
              sent_at = coalesce(m.sent_at, t.sent_at), delivered_at = coalesce(m.delivered_at, t.delivered_at), read_at = coalesce(m.read_at, t.read_at),
              failed_at = coalesce(t.failed_at, m.failed_at), error_code = coalesce(t.error_code, m.error_code), error_message = coalesce(t.error_message, m.error_message),
              lease_until = null, updated_at = $1
             from unnest($2::bigint[], $3::text[], $4::int[], $5::timestamptz[], $6::timestamptz[], $7::timestamptz[], $8::timestamptz[], $9::int[], $10::text[])
               as t(id, status, rank, sent_at, delivered_at, read_at, failed_at, error_code, error_message)
            where m.id = t.id and ${RANK_SQL.replace('case status', 'case m.status')} < t.rank
              and not (t.status = 'failed' and ${RANK_SQL.replace('case status', 'case m.status')} > 2)
            returning m.id, m.status`,
          [
            nowIso,
            list.map((c) => c.id),
            list.map((c) => c.status),
            list.map((c) => c.rank),
            list.map((c) => (c.status === 'failed' ? null : c.sentAt)),
            list.map((c) => (c.status === 'failed' ? null : c.deliveredAt)),
            list.map((c) => (c.status === 'failed' ? null : c.readAt)),
            list.map((c) => (c.status === 'failed' ? c.failedAt : null)),
            list.map((c) => (c.status === 'failed' ? c.errorCode : null)),
            list.map((c) => (c.status === 'failed' ? c.errorMessage : null)),
          ],
        );
        for (const row of result.rows as { id: number | string; status: MessageStatus }[]) {
          if (row.status === 'failed') failedIds.push(Number(row.id));
          else noteApplied(row.status, Number(row.id));
        }
      }
      applied.set('failed', failedIds);
      // Meta's error fields of the messages that failed now (few: one statement each).
      for (const id of failedIds) {
        const reported = errorOf.get(id);
        if (reported) await trx('messages').where({ id, status: 'failed' }).update(metaErrorColumns(reported.title, reported));
      }
      if (failedIds.length > 0) {
        const optedOut = list.filter((c) => c.status === 'failed' && c.errorCode === OPTED_OUT_ERROR_CODE && failedIds.includes(c.id)).map((c) => c.id);
        await this.suppressOptedOut(trx, optedOut);
        // Failures reported under a customer's own secret wait for an administrator's refund.
        await this.refundFailed(trx, failedIds.filter((id) => refundable.has(id)));
      }
      await this.recordMessageStatuses?.(trx, appliedChanges());
    });
    const changes = appliedChanges();
    afterCommit(outer, () => this.onMessageStatuses?.(changes), this.listenerFailed);
    await this.completeCampaigns([...campaigns], outer);
    return { unmatched };
  }

  /**
   * Refunds finally failed messages that were charged and not refunded yet (the wallet's
   * `refundMessages`). Answers the campaigns touched.
   */
  async refundFailed(trx: Knex.Transaction, messageIds: readonly number[], status: 'failed' | 'cancelled' = 'failed'): Promise<number[]> {
    return (await this.deps.wallet.refundMessages(trx, messageIds, status)).campaignIds;
  }

  /**
   * Unsent messages of a cancelled campaign become `cancelled` (not `failed`: no delivery was
   * tried), are refunded and counted on the campaign: its `queued` ones when the cancel happens,
   * or the given `sending` ones a dispatcher had claimed but saw cancelled before sending.
   * Answers how many changed.
   */
  async failCancelled(trx: Knex.Transaction, campaignId: number, fromStatus: 'queued' | 'sending', messageIds?: readonly number[]): Promise<number> {
    const nowIso = new Date().toISOString();
    const change = { status: 'cancelled', leaseUntil: null, errorCode: null, errorMessage: catalogue.campaigns.cancelledBeforeSending, updatedAt: nowIso };
    let count = 0;
    // A handed message may be with the provider: its answer (or a status) decides, never a cancel.
    if (messageIds) {
      for (let start = 0; start < messageIds.length; start += 900) {
        count += await trx('messages')
          .whereIn('id', messageIds.slice(start, start + 900))
          .where({ campaignId, status: fromStatus })
          .whereNull('handedAt')
          .update({ ...change, claimToken: null });
      }
    } else {
      count = await trx('messages').where({ campaignId, status: fromStatus }).whereNull('handedAt').update({ ...change, claimToken: null });
    }
    if (count === 0) return 0;
    const due = (await trx('messages').where({ campaignId, status: 'cancelled', refunded: false }).select('id')) as Pick<MessageRow, 'id'>[];
    await this.refundFailed(
      trx,
      due.map((row) => Number(row.id)),
      'cancelled',
    );
    await trx('campaigns')
      .where({ id: campaignId })
      .update({ cancelledCount: trx.raw('cancelled_count + ?', [count]), updatedAt: nowIso });
    return count;
  }

  /** Recipients whose message failed with 131050 stop getting this user's sends (not charged later). */
  private async suppressOptedOut(trx: Knex.Transaction, messageIds: readonly number[]): Promise<void> {
    if (messageIds.length === 0) return;
    const rows = (await trx('messages').whereIn('id', messageIds).select('userId', 'recipient')) as Pick<MessageRow, 'userId' | 'recipient'>[];
    await this.addSuppressions(
      trx,
      rows.map((r) => ({ userId: r.userId, recipient: r.recipient, source: 'send_error', reason: '' })),
    );
  }

  /** `source`: how the number came onto the list (shared/schemas/suppressions.ts SUPPRESSION_SOURCES). */
  async addSuppressions(db: Knex, rows: readonly { userId: number; recipient: string; source: TSuppressionSource; reason: string }[]): Promise<void> {
    if (rows.length === 0) return;
    const nowIso = new Date().toISOString();
    await db('suppressions')
      .insert(rows.map((r) => ({ userId: r.userId, recipient: r.recipient, source: r.source, reason: r.reason.slice(0, 200), createdAt: nowIso })))
      .onConflict(['userId', 'recipient'])
      .ignore();
  }

  async removeSuppression(userId: number, recipient: string): Promise<void> {
    await this.deps.db('suppressions').where({ userId, recipient }).delete();
  }

  /**
   * Told, after each commit, which messages reached which status. One call per batch of results
   * or status events; a message may be reported twice (at least once).
   */
  onMessageStatuses: ((changes: readonly MessageStatusChanges[number][]) => void) | null = null;

  /**
   * Given the same changes inside the transaction that makes them, before its commit, for what
   * must not miss one (the webhook outbox): an announcement after the commit is lost if
   * the process stops in between. Must not fail the transaction (a status write outranks it).
   */
  recordMessageStatuses: ((trx: Knex.Transaction, changes: MessageStatusChanges) => Promise<void>) | null = null;

  /** Told the campaigns that may just have completed (the owner's notification). */
  onCampaignsSettled: ((campaignIds: readonly number[]) => void) | null = null;

  /**
   * Told the campaigns whose messages just moved, after the move committed (live progress
   * on the owner's stream, the stall watch). Must not wait or throw: it runs on the sending path.
   */
  onCampaignsProgressed: ((campaignIds: readonly number[]) => void) | null = null;

  /**
   * Given the campaigns that may just have completed inside the transaction that completes them,
   * before its commit (`campaign.completed` in the webhook outbox), as
   * `recordMessageStatuses` is given statuses. Must not fail the transaction.
   */
  recordCampaignsCompleted: ((trx: Knex.Transaction, campaignIds: readonly number[]) => Promise<void>) | null = null;

  /**
   * Running campaigns with nothing left to send become completed. `check: false` only announces
   * the progress: the caller knows the campaigns still have messages in flight (see
   * `ResultsWritten.checkCompletion`).
   */
  async completeCampaigns(campaignIds: readonly number[], db: Knex = this.deps.db, options: { check?: boolean; announceProgress?: boolean } = {}): Promise<void> {
    if (campaignIds.length === 0) return;
    const { check = true, announceProgress = true } = options;
    if (!check) {
      if (announceProgress) afterCommit(db, () => this.onCampaignsProgressed?.(campaignIds), this.listenerFailed);
      return;
    }
    const nowIso = new Date().toISOString();
    const completable = (query: Knex.QueryBuilder) =>
      query
        .whereIn('id', campaignIds)
        // Rows still staged (materialiser.ts) are queued messages not yet written.
        .where({ status: 'running', stagedRecipients: 0 })
        .whereNotExists((q) => q.select(this.deps.db.raw('1')).from('messages').whereRaw('messages.campaign_id = campaigns.id').whereIn('messages.status', UNFINISHED_STATUSES));
    const complete = async (trx: Knex.Transaction): Promise<number> => {
      let changed = await completable(trx('campaigns')).update({ status: 'completed', completedAt: nowIso, updatedAt: nowIso });
      if (changed > 0) {
        // The public API's day campaign takes new messages while it runs. On PostgreSQL the update
        // above, having waited for the row of a send that just joined, checks the row again but
        // not the messages (its snapshot predates them): a statement of its own, which sees them,
        // sets such a campaign running again, so its new messages are sent. On SQLite nothing
        // joins between the two statements (one writer), so it finds no campaign to reopen.
        const reopened = await trx('campaigns')
          .whereIn('id', campaignIds)
          .where({ status: 'completed', completedAt: nowIso })
          .whereNotNull('apiDay')
          .whereExists((q) => q.select(this.deps.db.raw('1')).from('messages').whereRaw('messages.campaign_id = campaigns.id').whereIn('messages.status', UNFINISHED_STATUSES))
          .update({ status: 'running', completedAt: null });
        changed -= reopened;
      }
      if (changed > 0) await this.recordCampaignsCompleted?.(trx, campaignIds);
      return changed;
    };
    // The completion and its record commit together: in the caller's transaction where there is
    // one (the record has its own savepoint), otherwise in one of their own. Nearly every batch
    // leaves its campaigns running, so a transaction of their own (BEGIN, the update, COMMIT) is
    // opened only where a read finds one to complete: one round trip instead of three per result
    // batch. The update checks again inside it.
    const completed = db.isTransaction
      ? await complete(db as Knex.Transaction)
      : (await completable(db('campaigns')).first('id')) !== undefined
        ? await db.transaction(complete)
        : 0;
    // Every result write and status batch ends here with the campaigns it touched.
    afterCommit(
      db,
      () => {
        if (announceProgress) this.onCampaignsProgressed?.(campaignIds);
        if (completed > 0) this.onCampaignsSettled?.(campaignIds);
      },
      this.listenerFailed,
    );
  }
}

/** One claim of one message: a message claimed again is a different claim (the fencing token). */
export function claimKey(claim: { id: number; claimToken: string | null }): string {
  return `${claim.id}:${claim.claimToken ?? ''}`;
}

/** See MessageOutcomes.settleByReference; also used by the sweep before it retries an unknown send. */
export async function settleReferences(trx: Knex, references: readonly { id: number; claimToken: string; providerMessageId: string; at: Date }[]): Promise<number> {
  let settled = 0;
  const nowIso = new Date().toISOString();
  // Nearly every event carries a reference, nearly none is needed: one query finds the few.
  const waiting = new Set<string>();
  const ids = [...new Set(references.map((r) => r.id))];
  for (let start = 0; start < ids.length; start += 900) {
    const rows = (await trx('messages')
      .whereIn('id', ids.slice(start, start + 900))
      .where({ status: 'unknown' })
      .whereNull('providerMessageId')
      .select('id', 'claimToken')) as Pick<MessageRow, 'id' | 'claimToken'>[];
    for (const row of rows) waiting.add(claimKey({ id: Number(row.id), claimToken: row.claimToken }));
  }
  // In id order, like every other write of message rows: rows locked in one order do not deadlock.
  for (const reference of [...references].sort((a, b) => a.id - b.id)) {
    if (!waiting.has(claimKey(reference))) continue;
    // Another message already holding this provider id would break the unique index: not ours.
    const taken = (await trx('messages').where({ providerMessageId: reference.providerMessageId }).first('id')) as Pick<MessageRow, 'id'> | undefined;
    if (taken) continue;
    const changed = await trx('messages')
      .where({ id: reference.id, claimToken: reference.claimToken, status: 'unknown' })
      .whereNull('providerMessageId')
      .update({ status: 'sent', providerMessageId: reference.providerMessageId, sentAt: reference.at.toISOString(), leaseUntil: null, errorCode: null, errorMessage: null, updatedAt: nowIso });
    if (changed > 0) waiting.delete(claimKey(reference));
    settled += changed;
  }
  return settled;
}
