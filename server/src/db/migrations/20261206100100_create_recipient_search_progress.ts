import type { Knex } from 'knex';
import { isPostgres } from '../knex';

/**
 * SQLite: how far the reports' search index by part of a number has read `messages` (next
 * migration). Message ids only grow (AUTOINCREMENT never reuses one) and SQLite commits one writer
 * at a time, so every message at or below `last_message_id` is in the index and every one above it
 * is not yet: one number says what is pending, where PostgreSQL keeps ranges written by a trigger
 * (`recipient_numbers_pending`). Starts at 0: reports/recipientNumbers.ts reads the messages already
 * there in the background, and the search reads the pending ones itself meanwhile.
 */
export async function up(knex: Knex): Promise<void> {
  if (isPostgres(knex)) return;
  await knex.raw('create table recipient_search_progress (last_message_id integer not null)');
  await knex.raw('insert into recipient_search_progress (last_message_id) values (0)');
}

export async function down(knex: Knex): Promise<void> {
  if (isPostgres(knex)) return;
  await knex.raw('drop table recipient_search_progress');
}
