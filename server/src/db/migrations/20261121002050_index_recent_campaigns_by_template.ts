import type { Knex } from 'knex';

/** Duplicate Blocked first asks whether the user sent this template recently: one index range. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('campaigns', (table) => {
    table.index(['user_id', 'template_id', 'created_at'], 'campaigns_user_template_recent_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('campaigns', (table) => {
    table.dropIndex(['user_id', 'template_id', 'created_at'], 'campaigns_user_template_recent_index');
  });
}
