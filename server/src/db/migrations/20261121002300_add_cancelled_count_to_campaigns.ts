import type { Knex } from 'knex';

/**
 * Messages a cancel stopped before they were sent, kept on the campaign so usage figures (billable
 * minus cancelled) come from the small campaigns table instead of a scan of every message.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('campaigns', (table) => {
    table.integer('cancelled_count').notNullable().defaultTo(0);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('campaigns', (table) => {
    table.dropColumn('cancelled_count');
  });
}
