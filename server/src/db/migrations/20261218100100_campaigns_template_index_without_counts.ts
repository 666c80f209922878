import type { Knex } from 'knex';
import { isPostgres } from '../knex';

/**
 * On PostgreSQL, the reports' index of campaigns by user and template name no longer carries
 * `total_recipients`. The public API's day campaign adds to that count on every group commit,
 * thousands of times an hour, and a changed indexed column makes each update a new entry in every
 * index of the table instead of a heap-only (HOT) update: dead row versions piled up behind the
 * one campaign all day. PostgreSQL read the count from the table anyway (the reports' query also
 * asks for the id, which the index lacked). SQLite keeps the index: it has no heap-only updates to
 * lose, and there the index with its rowid answers that query without reading the table
 * (docs/decisions/2026-12-07-day-campaign-updates-stay-heap-only.md).
 */
export async function up(knex: Knex): Promise<void> {
  if (!isPostgres(knex)) return;
  await knex.schema.alterTable('campaigns', (table) => {
    table.dropIndex(['user_id', 'template_name', 'total_recipients'], 'campaigns_user_template_index');
    table.index(['user_id', 'template_name'], 'campaigns_user_template_name_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  if (!isPostgres(knex)) return;
  await knex.schema.alterTable('campaigns', (table) => {
    table.dropIndex(['user_id', 'template_name'], 'campaigns_user_template_name_index');
    table.index(['user_id', 'template_name', 'total_recipients'], 'campaigns_user_template_index');
  });
}
