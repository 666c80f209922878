/**
 * The dispatcher's row locks and fences on PostgreSQL, where instances share the messages: rows
 * are locked in id order and rows another transaction holds are skipped, so that renewals, sweeps
 * and result writes never deadlock against each other.
 */
import type { Knex } from 'knex';
import type { LeasedBatch } from '../leaseKeeper';
import type { DispatchStore, HandoffClaim, HandoffStamp } from './store';

/** Hands over every claim of a round at once. Bindings: now, now, lease end, ids, tokens. */
const HAND_OVER_SQL = `update messages as m set handed_at = ?, updated_at = ?, lease_until = ?
   from unnest(?::bigint[], ?::text[]) as t(id, token)
  where m.id = t.id and m.claim_token = t.token and m.status = 'sending' and m.handed_at is null
    and exists (select 1 from campaigns c where c.id = m.campaign_id and c.status = 'running')
  returning m.id, m.claim_token as token`;

/**
 * Renews every batch's rows at once. Rows another transaction holds (a result write or a status
 * batch, both brief) are skipped until the next renewal: locking in scan order deadlocked against
 * them. Bindings: lease end, ids, tokens.
 */
const RENEW_LEASES_SQL = `update messages set lease_until = ? where id in (
   select m.id from messages m join unnest(?::bigint[], ?::text[]) as t(id, token) on m.id = t.id and m.claim_token = t.token
    where m.status in ('sending', 'unknown') order by m.id for update of m skip locked)`;

export class PostgresDispatchStore implements DispatchStore {
  async campaignStatuses(trx: Knex.Transaction, campaignIds: readonly number[]): Promise<Map<number, string>> {
    const rows = (await trx('campaigns').whereIn('id', campaignIds).select('id', 'status').forShare()) as { id: number | string; status: string }[];
    return new Map(rows.map((row) => [Number(row.id), String(row.status)]));
  }

  async ownedUnhanded(trx: Knex.Transaction, ids: readonly number[], claimToken: string): Promise<number[]> {
    const rows = (await trx('messages').whereIn('id', ids).where({ claimToken, status: 'sending' }).whereNull('handedAt').select('id').forUpdate()) as { id: number | string }[];
    return rows.map((row) => Number(row.id));
  }

  async handOver(db: Knex, round: readonly HandoffClaim[], stamp: HandoffStamp): Promise<{ id: number; claimToken: string }[]> {
    const result = (await db.raw(HAND_OVER_SQL, [stamp.nowIso, stamp.nowIso, stamp.leaseUntilIso, round.map((r) => r.id), round.map((r) => r.claimToken)])) as {
      rows: { id: number | string; token: string }[];
    };
    // A raw statement's rows keep the database's column names; the alias needs no mapping.
    return result.rows.map((row) => ({ id: Number(row.id), claimToken: row.token }));
  }

  async renewLeases(db: Knex, batches: readonly LeasedBatch[], leaseUntil: Date): Promise<void> {
    const ids: number[] = [];
    const tokens: string[] = [];
    for (const batch of batches) {
      for (const id of batch.ids) {
        ids.push(id);
        tokens.push(batch.claimToken);
      }
    }
    await db.raw(RENEW_LEASES_SQL, [leaseUntil.toISOString(), ids, tokens]);
  }

  async updateHanded(db: Knex, handed: Knex.QueryBuilder, values: Record<string, unknown>): Promise<number> {
    // Two sweeps (or a sweep and a lease renewal) updating the same rows in different orders
    // deadlocked: lock them in id order and skip rows another transaction holds; the next sweep
    // takes those if their lease is still lapsed.
    return db('messages').whereIn('id', handed.select('id').orderBy('id').forUpdate().skipLocked()).update(values);
  }
}
