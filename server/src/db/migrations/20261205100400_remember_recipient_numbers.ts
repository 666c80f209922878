import type { Knex } from 'knex';
import { isPostgres } from '../knex';

/**
 * Every statement that inserts messages (the API's one-statement round, a quick send's
 * transaction, a chunk streamed from an upload, the materialiser's chunks) leaves the range of
 * their ids in `recipient_numbers_pending`, per user and campaign: a trigger, so that no way of
 * writing messages can miss it, and in the same transaction, so that the search finds a message as
 * soon as it is committed. Then the numbers of the messages already there.
 */
export async function up(knex: Knex): Promise<void> {
  if (!isPostgres(knex)) return;
  await knex.raw(`create function remember_recipient_numbers() returns trigger language plpgsql as $$
    begin
      insert into recipient_numbers_pending (user_id, campaign_id, first_id, last_id)
      select user_id, campaign_id, min(id), max(id) from added_messages group by user_id, campaign_id;
      return null;
    end $$`);
  await knex.raw(`create trigger messages_remember_recipient_numbers after insert on messages
    referencing new table as added_messages for each statement execute function remember_recipient_numbers()`);
  await knex.raw('insert into recipient_numbers (user_id, recipient) select distinct user_id, recipient from messages order by 1, 2');
}

export async function down(knex: Knex): Promise<void> {
  if (!isPostgres(knex)) return;
  await knex.raw('drop trigger messages_remember_recipient_numbers on messages');
  await knex.raw('drop function remember_recipient_numbers()');
  await knex.raw('delete from recipient_numbers');
  await knex.raw('delete from recipient_numbers_pending');
}
