import type { Knex } from 'knex';
import { isPostgres } from '../knex';

/**
 * A message has a provider id only once it is sent, yet the unique index on it took an entry for
 * every queued row as it was accepted: a million-row campaign maintained it a million times for
 * NULLs. Made partial, acceptance skips it and the dispatcher adds each id as it is sent. Lookups by
 * provider id (`= ?`, `in (...)`, `= any(...)`) imply NOT NULL, so both databases still use it.
 */
export async function up(knex: Knex): Promise<void> {
  if (isPostgres(knex)) await knex.raw('alter table messages drop constraint messages_provider_message_id_unique');
  else await knex.raw('drop index messages_provider_message_id_unique');
  await knex.raw('create unique index messages_provider_message_id_unique on messages (provider_message_id) where provider_message_id is not null');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index messages_provider_message_id_unique');
  if (isPostgres(knex)) await knex.raw('alter table messages add constraint messages_provider_message_id_unique unique (provider_message_id)');
  else await knex.raw('create unique index messages_provider_message_id_unique on messages (provider_message_id)');
}
