import type { Knex } from 'knex';
import { isPostgres } from '../knex';

/**
 * SQLite: the reports' search by part of a number through an FTS5 trigram index of
 * `messages.recipient`. That search has no range to seek, so it tested each of the
 * user's numbers in the recipient index: 57-85 ms a request for a million numbers, 85-111 ms on a
 * slow machine, against the 100 ms target. `recipient like '%digits%'` on this table reads the
 * trigrams' rows instead: 4-7 ms for a whole number, 1 ms for five digits.
 *
 * External content (the numbers stay in `messages`, read back by rowid to confirm each match), and
 * `detail=none`: positions are not needed when every match is confirmed against the number itself,
 * and without them the index is about 25 MB a million messages instead of 45. Messages are never
 * updated in their recipient, so sending never touches this index; reports/recipientNumbers.ts adds
 * new messages in the background, in id order, and a trigger (next migration) takes deleted ones
 * out. PostgreSQL has its own (`recipient_numbers`, by pg_trgm).
 *
 * A later migration that rebuilds `messages` on SQLite (knex's `alterTable` copies the table and
 * drops the old one) loses the trigger with it: it must create the trigger again and rebuild this
 * index (`insert into messages_recipient_search (messages_recipient_search) values ('rebuild')`,
 * then the mark set to the highest message id).
 */
export async function up(knex: Knex): Promise<void> {
  if (isPostgres(knex)) return;
  await knex.raw(
    "create virtual table messages_recipient_search using fts5(recipient, content = 'messages', content_rowid = 'id', tokenize = 'trigram', detail = 'none')",
  );
}

export async function down(knex: Knex): Promise<void> {
  if (isPostgres(knex)) return;
  await knex.raw('drop table messages_recipient_search');
}
