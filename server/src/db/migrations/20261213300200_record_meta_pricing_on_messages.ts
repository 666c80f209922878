import type { Knex } from 'knex';

/**
 * What Meta says it billed for a message: the `pricing` object of its status webhooks (`billable`,
 * `category`, `pricing_model`, `type`), kept beside our own charge for reconciliation. Null until a
 * status carrying pricing arrives.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('messages', (table) => {
    table.boolean('meta_billable').nullable();
    table.string('meta_category', 40).nullable();
    table.string('meta_pricing_model', 20).nullable();
    table.string('meta_pricing_type', 40).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('messages', (table) => {
    table.dropColumn('meta_pricing_type');
    table.dropColumn('meta_pricing_model');
    table.dropColumn('meta_category');
    table.dropColumn('meta_billable');
  });
}
