import type { Knex } from 'knex';
import { isPostgres } from '../knex';

/**
 * PostgreSQL: the dispatch index holds open messages only (queued, sending, unknown), the ones its
 * readers look for: the lease sweep and the settle sweep (sending/queues.ts). A status change
 * writes a new row version with an entry in each index whose predicate the version meets, so a
 * message's result and its delivery and read statuses no longer add entries here, and the index
 * stays the size of the backlog rather than of the table. SQLite keeps the whole index:
 * its planner uses a partial index only where a query repeats the index's condition.
 */
/**
 * UNFINISHED_STATUSES (db/rows/messages.ts), written out so that the migration stays as it
 * ran; tests/api/dispatch-index.test.ts keeps the two equal.
 */
const OPEN_STATUSES = "('queued', 'sending', 'unknown')";

export async function up(knex: Knex): Promise<void> {
  if (!isPostgres(knex)) return;
  await knex.raw('drop index messages_dispatch_index');
  await knex.raw(`create index messages_dispatch_index on messages (status, next_attempt_at) where status in ${OPEN_STATUSES}`);
}

export async function down(knex: Knex): Promise<void> {
  if (!isPostgres(knex)) return;
  await knex.raw('drop index messages_dispatch_index');
  await knex.raw('create index messages_dispatch_index on messages (status, next_attempt_at)');
}
