/**
 * The dispatcher's fences on SQLite: one process and one connection, whose writers run one at a
 * time, so no row is locked; the handoff runs one prepared statement per claim.
 */
import type { Knex } from 'knex';
import type { LeasedBatch } from '../leaseKeeper';
import { rawConnection } from '../messageOutcomes';
import type { DispatchStore, HandoffClaim, HandoffStamp } from './store';

/** Hands over one claim. Bindings: now, now, lease end, id, token. */
const HAND_OVER_SQL = `update messages set handed_at = ?, updated_at = ?, lease_until = ?
  where id = ? and claim_token = ? and status = 'sending' and handed_at is null
    and exists (select 1 from campaigns where campaigns.id = messages.campaign_id and campaigns.status = 'running')`;

/** Ids per `in (...)` list, below SQLite's limit of bound values. */
const IDS_PER_STATEMENT = 900;

export class SqliteDispatchStore implements DispatchStore {
  async campaignStatuses(trx: Knex.Transaction, campaignIds: readonly number[]): Promise<Map<number, string>> {
    const rows = (await trx('campaigns').whereIn('id', campaignIds).select('id', 'status')) as { id: number | string; status: string }[];
    return new Map(rows.map((row) => [Number(row.id), String(row.status)]));
  }

  async ownedUnhanded(trx: Knex.Transaction, ids: readonly number[], claimToken: string): Promise<number[]> {
    const rows = (await trx('messages').whereIn('id', ids).where({ claimToken, status: 'sending' }).whereNull('handedAt').select('id')) as { id: number | string }[];
    return rows.map((row) => Number(row.id));
  }

  async handOver(db: Knex, round: readonly HandoffClaim[], stamp: HandoffStamp): Promise<{ id: number; claimToken: string }[]> {
    const handed: HandoffClaim[] = [];
    await db.transaction(async (trx) => {
      const connection = await rawConnection(trx);
      if (!('prepare' in connection)) throw new Error('the embedded handoff needs SQLite');
      // One prepared statement run per send: a statement built per row cost more than the row.
      const statement = connection.prepare(HAND_OVER_SQL);
      for (const entry of round) if (statement.run(stamp.nowIso, stamp.nowIso, stamp.leaseUntilIso, entry.id, entry.claimToken).changes > 0) handed.push(entry);
    });
    return handed;
  }

  async renewLeases(db: Knex, batches: readonly LeasedBatch[], leaseUntil: Date): Promise<void> {
    const until = leaseUntil.toISOString();
    await db.transaction(async (trx) => {
      for (const batch of batches) {
        for (let start = 0; start < batch.ids.length; start += IDS_PER_STATEMENT) {
          await trx('messages')
            .whereIn('id', batch.ids.slice(start, start + IDS_PER_STATEMENT))
            .where({ claimToken: batch.claimToken })
            .whereIn('status', ['sending', 'unknown'])
            .update({ leaseUntil: until });
        }
      }
    });
  }

  async updateHanded(_db: Knex, handed: Knex.QueryBuilder, values: Record<string, unknown>): Promise<number> {
    return handed.update(values);
  }
}
