/**
 * Every write that moves a message after acceptance: the dispatcher's send results, the
 * provider's status events, refunds of finally failed messages, opt-outs and campaign
 * completion. Statuses only move forward (the rank guard is in the SQL itself, so two instances
 * applying events for one message cannot move it back), and a message is refunded at most once
 * (the `refunded` flag flips in the same transaction as the ledger row).
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { messages as catalogue } from '@shared/messages';
import type { Logger } from '../logger';
import type { WalletService } from '../services/wallet';
import type { MessageStatus, StatusEvent } from './providers/types';

/** Cloud API code for a recipient who stopped marketing messages from this business. */
export const OPTED_OUT_ERROR_CODE = 131050;
/** Code recorded on a message that a cancel stopped before it was sent (refunded). */
export const CANCELLED_ERROR_CODE = -5;

const RANK_SQL = `case status when 'queued' then 0 when 'sending' then 1 when 'sent' then 2 when 'delivered' then 3 when 'read' then 4 else 9 end`;
/** `failed` only beats `sending`/`sent` (Meta never fails a delivered message). */
const STATUS_RANK: Record<MessageStatus, number> = { sent: 2, delivered: 3, failed: 3, read: 4 };

export interface SendSuccess {
  id: number;
  providerMessageId: string;
}

export interface SendRetry {
  id: number;
  nextAttemptAt: Date;
  code: number;
  title: string;
}

export interface SendFailure {
  id: number;
  code: number;
  title: string;
}

type RawConnection = { prepare(sql: string): { run(...params: unknown[]): { changes: number } } } | { query(text: string, values: unknown[]): Promise<{ rows: unknown[]; rowCount: number | null }> };

async function rawConnection(trx: Knex.Transaction): Promise<RawConnection> {
  return (await (trx.client as unknown as { acquireConnection(): Promise<RawConnection> }).acquireConnection()) as RawConnection;
}

export type RequeueHook = (trx: Knex.Transaction, retries: readonly SendRetry[]) => Promise<void>;

export class MessageOutcomes {
  private requeueHook: RequeueHook | null = null;

  constructor(private readonly deps: { db: Knex; wallet: WalletService; log: Logger }) {}

  /** The PostgreSQL queue schedules a job for each retry, in the transaction that requeues it. */
  setRequeueHook(hook: RequeueHook | null): void {
    this.requeueHook = hook;
  }

  private get isPostgres(): boolean {
    return this.deps.db.client.config.client === 'pg';
  }

  /** Results of one dispatched batch, written together; only rows still `sending` change. */
  async recordSendResults(results: { sent: SendSuccess[]; retry: SendRetry[]; failed: SendFailure[] }): Promise<void> {
    const nowIso = new Date().toISOString();
    const campaigns = new Set<number>();
    await this.deps.db.transaction(async (trx) => {
      if (results.sent.length > 0) {
        const connection = await rawConnection(trx);
        if ('prepare' in connection) {
          const statement = connection.prepare(
            `update messages set status = 'sent', provider_message_id = ?, sent_at = ?, lease_until = null, error_code = null, error_message = null, updated_at = ?
              where id = ? and status = 'sending'`,
          );
          for (const row of results.sent) statement.run(row.providerMessageId, nowIso, nowIso, row.id);
        } else {
          await connection.query(
            `update messages as m set status = 'sent', provider_message_id = t.pid, sent_at = $1, lease_until = null, error_code = null, error_message = null, updated_at = $1
               from unnest($2::bigint[], $3::text[]) as t(id, pid) where m.id = t.id and m.status = 'sending'`,
            [nowIso, results.sent.map((r) => r.id), results.sent.map((r) => r.providerMessageId)],
          );
        }
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
          .select('m.id', 'm.campaignId', 'c.status');
        if (this.isPostgres) ownersQuery = ownersQuery.forShare('c');
        const owners = ((await ownersQuery) as { id: number; campaignId: number; status: string }[]).filter((o) => o.status === 'cancelled');
        if (owners.length > 0) {
          const byCampaign = new Map<number, number[]>();
          for (const owner of owners) byCampaign.set(owner.campaignId, [...(byCampaign.get(owner.campaignId) ?? []), Number(owner.id)]);
          for (const [campaignId, ids] of byCampaign) await this.failCancelled(trx, campaignId, 'sending', ids);
          const gone = new Set(owners.map((o) => Number(o.id)));
          retries = retries.filter((r) => !gone.has(r.id));
        }
      }
      for (const row of retries) {
        await trx('messages')
          .where({ id: row.id, status: 'sending' })
          .update({ status: 'queued', nextAttemptAt: row.nextAttemptAt.toISOString(), leaseUntil: null, errorCode: row.code, errorMessage: row.title.slice(0, 500), updatedAt: nowIso });
      }
      if (retries.length > 0 && this.requeueHook) await this.requeueHook(trx, retries);
      if (results.failed.length > 0) {
        for (const row of results.failed) {
          await trx('messages')
            .where({ id: row.id, status: 'sending' })
            .update({ status: 'failed', failedAt: nowIso, leaseUntil: null, errorCode: row.code, errorMessage: row.title.slice(0, 500), updatedAt: nowIso });
        }
        const ids = results.failed.map((r) => r.id);
        await this.suppressOptedOut(trx, results.failed.filter((r) => r.code === OPTED_OUT_ERROR_CODE).map((r) => r.id));
        for (const id of await this.refundFailed(trx, ids)) campaigns.add(id);
      }
      const touched = await trx('messages')
        .whereIn(
          'id',
          [...results.sent, ...results.failed].map((r) => r.id),
        )
        .distinct('campaignId');
      for (const row of touched as { campaignId: number }[]) campaigns.add(row.campaignId);
    });
    await this.completeCampaigns([...campaigns]);
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
    await outer.transaction(async (trx) => {
      const found = new Map<string, { id: number; status: string; campaignId: number }>();
      for (let start = 0; start < providerIds.length; start += 900) {
        const rows = (await trx('messages')
          .whereIn('providerMessageId', providerIds.slice(start, start + 900))
          .select('id', 'status', 'campaignId', 'providerMessageId')) as { id: number; status: string; campaignId: number; providerMessageId: string }[];
        for (const row of rows) found.set(row.providerMessageId, row);
      }
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
      for (const event of events) {
        const message = found.get(event.providerMessageId);
        if (!message) {
          unmatched.push(event);
          continue;
        }
        const at = event.timestamp.toISOString();
        const change = changes.get(message.id) ?? { id: message.id, rank: 0, status: event.status, sentAt: null, deliveredAt: null, readAt: null, failedAt: null, errorCode: null, errorMessage: null };
        if (event.status === 'failed') {
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
      const list = [...changes.values()];
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
        for (const row of result.rows as { id: number | string; status: string }[]) if (row.status === 'failed') failedIds.push(Number(row.id));
      }
      if (failedIds.length > 0) {
        const optedOut = list.filter((c) => c.status === 'failed' && c.errorCode === OPTED_OUT_ERROR_CODE && failedIds.includes(c.id)).map((c) => c.id);
        await this.suppressOptedOut(trx, optedOut);
        await this.refundFailed(trx, failedIds);
      }
    });
    await this.completeCampaigns([...campaigns], outer);
    return { unmatched };
  }

  /**
   * Refunds finally failed messages that were charged and not refunded yet: one ledger row per
   * campaign and call, covering each message once (the flag flips in this same transaction).
   * Answers the campaigns touched.
   */
  async refundFailed(trx: Knex.Transaction, messageIds: readonly number[]): Promise<number[]> {
    if (messageIds.length === 0) return [];
    const rows: { id: number; campaignId: number; userId: number; priceUnits: number }[] = [];
    for (let start = 0; start < messageIds.length; start += 900) {
      const chunk = messageIds.slice(start, start + 900);
      const due = (await trx('messages')
        .whereIn('id', chunk)
        .where({ status: 'failed', refunded: false })
        .where('priceUnits', '>', 0)
        .select('id', 'campaignId', 'userId', 'priceUnits')) as typeof rows;
      if (due.length === 0) continue;
      await trx('messages')
        .whereIn(
          'id',
          due.map((r) => r.id),
        )
        .update({ refunded: true });
      rows.push(...due);
    }
    const byCampaign = new Map<number, { userId: number; units: number; count: number }>();
    for (const row of rows) {
      const entry = byCampaign.get(row.campaignId) ?? { userId: row.userId, units: 0, count: 0 };
      entry.units += Number(row.priceUnits);
      entry.count += 1;
      byCampaign.set(row.campaignId, entry);
    }
    for (const [campaignId, entry] of byCampaign) {
      const campaign = (await trx('campaigns').where({ id: campaignId }).first('name', 'templateName', 'category')) as { name: string; templateName: string; category: string } | undefined;
      await this.deps.wallet.apply(
        {
          userId: entry.userId,
          amountUnits: entry.units,
          type: 'REFUND_ADD',
          description: `Refund: ${entry.count} failed message${entry.count === 1 ? '' : 's'} in campaign "${(campaign?.name ?? String(campaignId)).slice(0, 120)}"`,
          idempotencyKey: `campaign:${campaignId}:refund:${randomUUID()}`,
          templateName: campaign?.templateName ?? null,
          templateCategory: campaign?.category ?? null,
          referenceType: 'campaign',
          referenceId: String(campaignId),
        },
        trx,
      );
      await trx('campaigns')
        .where({ id: campaignId })
        .update({ refundedUnits: trx.raw('refunded_units + ?', [entry.units]), updatedAt: new Date().toISOString() });
    }
    return [...byCampaign.keys()];
  }

  /**
   * Unsent messages of a cancelled campaign become `failed` with CANCELLED_ERROR_CODE, are refunded
   * and counted on the campaign: its `queued` ones when the cancel happens, or the given `sending`
   * ones a dispatcher had claimed but saw cancelled before sending. Answers how many changed.
   */
  async failCancelled(trx: Knex.Transaction, campaignId: number, fromStatus: 'queued' | 'sending', messageIds?: readonly number[]): Promise<number> {
    const nowIso = new Date().toISOString();
    const change = { status: 'failed', failedAt: nowIso, leaseUntil: null, errorCode: CANCELLED_ERROR_CODE, errorMessage: catalogue.campaigns.cancelledBeforeSending, updatedAt: nowIso };
    let count = 0;
    if (messageIds) {
      for (let start = 0; start < messageIds.length; start += 900) {
        count += await trx('messages')
          .whereIn('id', messageIds.slice(start, start + 900))
          .where({ campaignId, status: fromStatus })
          .update(change);
      }
    } else {
      count = await trx('messages').where({ campaignId, status: fromStatus }).update(change);
    }
    if (count === 0) return 0;
    const due = (await trx('messages').where({ campaignId, status: 'failed', errorCode: CANCELLED_ERROR_CODE, refunded: false }).select('id')) as { id: number | string }[];
    await this.refundFailed(
      trx,
      due.map((row) => Number(row.id)),
    );
    await trx('campaigns')
      .where({ id: campaignId })
      .update({ cancelledCount: trx.raw('cancelled_count + ?', [count]), updatedAt: nowIso });
    return count;
  }

  /** Recipients whose message failed with 131050 stop getting this user's sends (not charged later). */
  private async suppressOptedOut(trx: Knex.Transaction, messageIds: readonly number[]): Promise<void> {
    if (messageIds.length === 0) return;
    const rows = (await trx('messages').whereIn('id', messageIds).select('userId', 'recipient')) as { userId: number; recipient: string }[];
    await this.addSuppressions(
      trx,
      rows.map((r) => ({ userId: r.userId, recipient: r.recipient, reason: 'error_131050' })),
    );
  }

  async addSuppressions(db: Knex, rows: readonly { userId: number; recipient: string; reason: string }[]): Promise<void> {
    if (rows.length === 0) return;
    const nowIso = new Date().toISOString();
    await db('suppressions')
      .insert(rows.map((r) => ({ userId: r.userId, recipient: r.recipient, reason: r.reason.slice(0, 40), createdAt: nowIso })))
      .onConflict(['userId', 'recipient'])
      .ignore();
  }

  async removeSuppression(userId: number, recipient: string): Promise<void> {
    await this.deps.db('suppressions').where({ userId, recipient }).delete();
  }

  /** Told the campaigns that may just have completed (issue 14: the owner's notification). */
  onCampaignsSettled: ((campaignIds: readonly number[]) => void) | null = null;

  /** Running campaigns with nothing left to send become completed. */
  async completeCampaigns(campaignIds: readonly number[], db: Knex = this.deps.db): Promise<void> {
    if (campaignIds.length === 0) return;
    const nowIso = new Date().toISOString();
    const completed = await db('campaigns')
      .whereIn('id', campaignIds)
      .where({ status: 'running' })
      .whereNotExists((q) => q.select(this.deps.db.raw('1')).from('messages').whereRaw('messages.campaign_id = campaigns.id').whereIn('messages.status', ['queued', 'sending']))
      .update({ status: 'completed', completedAt: nowIso, updatedAt: nowIso });
    if (completed > 0) this.onCampaignsSettled?.(campaignIds);
  }
}
