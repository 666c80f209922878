import type { Knex } from 'knex';
import { isPostgres } from '../knex';

/**
 * PostgreSQL checks a foreign key by a trigger query per inserted row, which locks the row it
 * finds: importing a million tagged contacts paid a lookup and a lock on each new contact, a
 * large share of the import (docs/decisions/2026-12-07-contacts-import-and-count-at-scale.md). The
 * tags keep their key to the owner (deleting a user still takes them), and the contacts service
 * deletes a contact's tags with the contact. SQLite checks a key by an index probe in its own
 * process, and keeps the key.
 */
export async function up(knex: Knex): Promise<void> {
  if (!isPostgres(knex)) return;
  await knex.schema.alterTable('contact_tags', (table) => {
    table.dropForeign(['contact_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  if (!isPostgres(knex)) return;
  await knex.raw('delete from contact_tags where contact_id not in (select id from contacts)');
  await knex.schema.alterTable('contact_tags', (table) => {
    table.foreign('contact_id').references('id').inTable('contacts').onDelete('CASCADE');
  });
}
