import type { Knex } from 'knex';
import { isPostgres } from '../knex';

/**
 * PostgreSQL checks a foreign key by a trigger query per inserted row, which also locks the row it
 * finds: importing a million tagged contacts paid two lookups per tag, a large share of the import
 * (docs/decisions/2026-12-07-contacts-import-and-count-at-scale.md). The contacts service deletes
 * a contact's tags with the contact; accounts are closed by marking them deleted, never by
 * deleting the row, so the key to the owner cascaded nothing the application does. SQLite checks
 * a key by an index probe in its own process, and keeps both.
 */
export async function up(knex: Knex): Promise<void> {
  if (!isPostgres(knex)) return;
  await knex.schema.alterTable('contact_tags', (table) => {
    table.dropForeign(['contact_id']);
    table.dropForeign(['user_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  if (!isPostgres(knex)) return;
  await knex.raw('delete from contact_tags where contact_id not in (select id from contacts)');
  await knex.schema.alterTable('contact_tags', (table) => {
    table.foreign('contact_id').references('id').inTable('contacts').onDelete('CASCADE');
    table.foreign('user_id').references('id').inTable('users').onDelete('CASCADE');
  });
}
