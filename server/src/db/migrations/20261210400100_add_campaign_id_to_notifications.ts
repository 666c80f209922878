import type { Knex } from 'knex';

/**
 * The campaign a notice tells the outcome of: its counts are read live from the campaign each time
 * the notice is listed (delivery reports and refunds arrive after the campaign completes). No
 * foreign key: the log cleanup may delete the campaign, and the notice then keeps its last text.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('notifications', (table) => {
    table.integer('campaign_id').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('notifications', (table) => {
    table.dropColumn('campaign_id');
  });
}
