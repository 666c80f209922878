import type { Knex } from 'knex';

/**
 * The campaign a campaign's failed messages were sent again as: once set, the campaign
 * says its failures were resent instead of offering the resend a second time.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('campaigns', (table) => {
    table.integer('resent_campaign_id').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('campaigns', (table) => {
    table.dropColumn('resent_campaign_id');
  });
}
