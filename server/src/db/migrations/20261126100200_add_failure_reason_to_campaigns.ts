import type { Knex } from 'knex';

/** Why a scheduled campaign could not start (its template was disabled meanwhile), shown with it. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('campaigns', (table) => {
    table.string('failure_reason', 500).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('campaigns', (table) => {
    table.dropColumn('failure_reason');
  });
}
