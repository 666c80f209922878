/**
 * Where the dispatcher and the queues' lease sweep lock and fence rows. `MessageDispatcher`
 * (dispatcher.ts) and the queues (queues.ts) are the rules: claim, hand over, send, record, hold,
 * renew, recover. How a step locks rows or runs its fence differs by database and lives behind
 * this interface, chosen once in container.ts:
 * - `PostgresDispatchStore` (postgresStore.ts): row locks (`for share`, `for update`, `skip
 *   locked` in id order) against other instances, and one statement over unnest() per round;
 * - `SqliteDispatchStore` (sqliteStore.ts): the one connection serialises writers, so no row
 *   locks; one prepared statement run per row.
 * Each takes the connection or transaction to work in, as the callers hold one.
 */
import type { Knex } from 'knex';
import type { LeasedBatch } from '../leaseKeeper';

/** One claim waiting for its handoff: the message and the token its claim wrote. */
export interface HandoffClaim {
  id: number;
  claimToken: string;
}

/** What a handoff writes on the rows it hands over. */
export interface HandoffStamp {
  nowIso: string;
  leaseUntilIso: string;
}

export interface DispatchStore {
  /**
   * The campaigns' statuses, read so that a pause or cancel updating a campaign row waits for the
   * transaction (or has committed and is seen).
   */
  campaignStatuses(trx: Knex.Transaction, campaignIds: readonly number[]): Promise<Map<number, string>>;
  /** Of these messages, those still `sending` under the claim and never handed, kept from other writers until `trx` ends. */
  ownedUnhanded(trx: Knex.Transaction, ids: readonly number[], claimToken: string): Promise<number[]>;
  /**
   * The fence before a send, for a round of claims (in id order): sets `handed_at` only on rows
   * still `sending`, never handed, carrying the claim's token, of a running campaign. Answers the
   * claims handed, by `id:token`.
   */
  handOver(db: Knex, round: readonly HandoffClaim[], stamp: HandoffStamp): Promise<{ id: number; claimToken: string }[]>;
  /** Extends the lease of rows that still carry their batch's token and are `sending` or `unknown`. */
  renewLeases(db: Knex, batches: readonly LeasedBatch[], leaseUntil: Date): Promise<void>;
  /** Updates the rows `handed` selects (handed sends under a lapsed lease), without deadlocking against another sweep. */
  updateHanded(db: Knex, handed: Knex.QueryBuilder, values: Record<string, unknown>): Promise<number>;
}
