import type { Knex } from 'knex';

/**
 * Reports list a user's messages newest first by (created_at, id). The old (user_id, created_at)
 * index leaves ties unordered on PostgreSQL, and one campaign's messages all share a created_at,
 * so the first page of a million-row campaign meant sorting the whole campaign. With id in the
 * index both databases read any page straight from it; campaign_id at the end lets the template
 * filter skip non-matching rows without touching the table. It replaces the old index, which
 * every query that used it can use as well (same leading columns).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('messages', (table) => {
    table.index(['user_id', 'created_at', 'id', 'campaign_id'], 'messages_user_created_id_index');
  });
  await knex.schema.alterTable('messages', (table) => {
    table.dropIndex(['user_id', 'created_at'], 'messages_user_created_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('messages', (table) => {
    table.index(['user_id', 'created_at'], 'messages_user_created_index');
  });
  await knex.schema.alterTable('messages', (table) => {
    table.dropIndex(['user_id', 'created_at', 'id', 'campaign_id'], 'messages_user_created_id_index');
  });
}
