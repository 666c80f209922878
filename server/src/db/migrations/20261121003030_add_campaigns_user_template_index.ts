import type { Knex } from 'knex';

/**
 * Reports read campaigns by user and template name: the distinct names for the template filter,
 * the campaigns of one template, and the sum of their recipients (a message count that needs no
 * scan of the messages). total_recipients in the index answers those sums from the index alone.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('campaigns', (table) => {
    table.index(['user_id', 'template_name', 'total_recipients'], 'campaigns_user_template_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('campaigns', (table) => {
    table.dropIndex(['user_id', 'template_name', 'total_recipients'], 'campaigns_user_template_index');
  });
}
