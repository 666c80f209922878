import type { Knex } from 'knex';

/**
 * The public API's single sends (`POST /api/send`) collect into one campaign per user, API key,
 * template, sender number and Indian day, instead of one campaign per call. `api_key_id` names
 * the key; `api_day` the day (YYYY-MM-DD) the campaign collects for, cleared when it stops taking
 * sends (cancelled). The unique index makes two first calls at once, on any instance, end in one
 * campaign: the second insert conflicts and reads the first's row. Every other campaign has NULLs
 * there, which both databases let repeat in a unique index.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('campaigns', (table) => {
    table.integer('api_key_id').nullable();
    table.string('api_day', 10).nullable();
  });
  await knex.raw('create unique index campaigns_api_day_unique on campaigns (user_id, api_key_id, template_id, sender_number_id, api_day)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index campaigns_api_day_unique');
  await knex.schema.alterTable('campaigns', (table) => {
    table.dropColumn('api_day');
    table.dropColumn('api_key_id');
  });
}
