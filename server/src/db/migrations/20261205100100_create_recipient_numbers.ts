import type { Knex } from 'knex';
import { isPostgres } from '../knex';

/**
 * Each user's distinct recipient numbers, for the reports' search by any part of a number. That
 * search has no range to seek, so it tested every message row's number of the user (a
 * million for a heavy sender): at the 100 ms limit on PostgreSQL, over it on slower machines. The
 * numbers are searched here instead (by trigram where PostgreSQL has pg_trgm, next migration), and
 * the messages then sought by the numbers found. Sending never updates these rows, so the index
 * costs nothing on the dispatch path; numbers arrive through `recipient_numbers_pending` (next
 * migration but one) and `reports/recipientNumbers.ts`.
 *
 * `orphaned_at`: log cleanup deleted messages to this number at that time; the number is forgotten
 * at a later cleanup if none are left (retention/store.ts). No unique key: two instances moving
 * the same new number at once would wait on each other; a number listed twice is read once.
 *
 * PostgreSQL only: SQLite's search already meets its target (an `instr` scan of the index, half the
 * time of PostgreSQL's) and has no trigram index to make this worth its writes.
 */
export async function up(knex: Knex): Promise<void> {
  if (!isPostgres(knex)) return;
  await knex.raw(`create table recipient_numbers (
    user_id integer not null references users (id) on delete cascade,
    recipient text not null,
    orphaned_at timestamptz)`);
  await knex.raw('create index recipient_numbers_user_recipient_index on recipient_numbers (user_id, recipient)');
  await knex.raw('create index recipient_numbers_orphaned_index on recipient_numbers (orphaned_at) where orphaned_at is not null');
}

export async function down(knex: Knex): Promise<void> {
  if (!isPostgres(knex)) return;
  await knex.raw('drop table recipient_numbers');
}
