import type { Knex } from 'knex';
import { isPostgres } from '../knex';

/**
 * Each suppression says how it came (keyword reply, button, preference webhook, send error,
 * manual, import) and keeps a reason a person wrote. The reason grows to hold a sentence; SQLite
 * does not enforce string lengths, so only PostgreSQL's column changes.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('suppressions', (table) => {
    table.string('source', 20).notNullable().defaultTo('manual');
  });
  if (isPostgres(knex)) await knex.raw('alter table suppressions alter column reason type varchar(200)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('suppressions', (table) => {
    table.dropColumn('source');
  });
}
