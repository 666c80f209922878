import type { Knex } from 'knex';

/**
 * How many of a campaign's recipients still wait in `campaign_recipients` for their message rows.
 * A campaign is not completed while any do; the partial index finds the few campaigns that have
 * some (the materialiser's work, and the Duplicate Blocked lookup of the same user's next send)
 * without reading the others.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('campaigns', (table) => {
    table.integer('staged_recipients').notNullable().defaultTo(0);
  });
  await knex.raw('create index campaigns_staged_index on campaigns (user_id, template_id) where staged_recipients > 0');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index campaigns_staged_index');
  await knex.schema.alterTable('campaigns', (table) => {
    table.dropColumn('staged_recipients');
  });
}
