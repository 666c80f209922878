import type { Knex } from 'knex';

/** An account's own opt-out keywords, a JSON array of strings; null keeps the defaults. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (table) => {
    table.text('opt_out_keywords').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (table) => {
    table.dropColumn('opt_out_keywords');
  });
}
