import type { Knex } from 'knex';

/**
 * The account a session acts in. Null means the person's own account (every session made before
 * teams existed), so no backfill is needed.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sessions', (table) => {
    table.integer('account_id').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sessions', (table) => {
    table.dropColumn('account_id');
  });
}
