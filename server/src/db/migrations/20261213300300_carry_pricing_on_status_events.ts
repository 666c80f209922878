import type { Knex } from 'knex';

/** Stored statuses carry Meta's `pricing` until they are applied to their message. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('status_events', (table) => {
    table.boolean('pricing_billable').nullable();
    table.string('pricing_category', 40).nullable();
    table.string('pricing_model', 20).nullable();
    table.string('pricing_type', 40).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('status_events', (table) => {
    table.dropColumn('pricing_type');
    table.dropColumn('pricing_model');
    table.dropColumn('pricing_category');
    table.dropColumn('pricing_billable');
  });
}
