import type { Knex } from 'knex';
import { isPostgres } from '../knex';

/**
 * Messages whose numbers are not yet in `recipient_numbers`, as one row per statement that wrote
 * them and campaign: the range of their ids (reports/recipientNumbers.ts reads those messages by
 * primary key and moves their numbers). A row per message here, even with no index, took writing
 * a million message rows from 19.6 s to about 22 s; a range per statement costs next to nothing,
 * and adding the numbers to `recipient_numbers` in the same statements took it to 43.7 s.
 */
export async function up(knex: Knex): Promise<void> {
  if (!isPostgres(knex)) return;
  await knex.raw('create table recipient_numbers_pending (user_id integer not null, campaign_id integer not null, first_id bigint not null, last_id bigint not null)');
}

export async function down(knex: Knex): Promise<void> {
  if (!isPostgres(knex)) return;
  await knex.raw('drop table recipient_numbers_pending');
}
