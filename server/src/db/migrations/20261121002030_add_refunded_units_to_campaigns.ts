import type { Knex } from 'knex';

/** What a campaign has given back for finally failed messages, kept as a running total for its live counts. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('campaigns', (table) => {
    table.bigInteger('refunded_units').notNullable().defaultTo(0);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('campaigns', (table) => {
    table.dropColumn('refunded_units');
  });
}
