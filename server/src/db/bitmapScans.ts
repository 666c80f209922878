import type { Knex } from 'knex';

/**
 * PostgreSQL: turns bitmap scans off for the rest of the transaction, so that no GIN index can be
 * read by its statements.
 *
 * `recipient_numbers` has two indexes on its numbers: the btree (user_id, recipient) and the GIN
 * trigram index behind the reports' search by part of a number. pg_trgm's GIN operator class
 * serves `=` as well (PostgreSQL 14 and later), and once the table has statistics the planner
 * takes it for an equality probe: it reads the posting lists of trigrams that every number shares
 * ('919', '000'), milliseconds a probe and growing with the table, where the btree answers in
 * microseconds (the numbers worker's batches took a hundred times longer).
 * GIN is read by bitmap scans only, so with them off the planner is left the btree, and hash
 * joins on the number stay open to it; writing the equality as a range, tried first, closed
 * those and joined by the user alone. The search, which wants the trigram index, never runs here.
 */
export const NO_BITMAP_SCANS_SQL = 'set local enable_bitmapscan = off';

/** Runs `work` in a transaction whose statements read no GIN index (see NO_BITMAP_SCANS_SQL). */
export function withoutBitmapScans<T>(db: Knex, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  return db.transaction(async (trx) => {
    await trx.raw(NO_BITMAP_SCANS_SQL);
    return work(trx);
  });
}
