import type { Knex } from 'knex';

/**
 * The daily cleanup walks messages and status events oldest first in bounded batches; without
 * these indexes every batch would scan the whole table.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('messages', (table) => {
    table.index(['created_at'], 'messages_created_index');
  });
  await knex.schema.alterTable('status_events', (table) => {
    table.index(['created_at'], 'status_events_created_index');
  });
  await knex.schema.alterTable('campaigns', (table) => {
    table.index(['created_at'], 'campaigns_created_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('campaigns', (table) => {
    table.dropIndex(['created_at'], 'campaigns_created_index');
  });
  await knex.schema.alterTable('status_events', (table) => {
    table.dropIndex(['created_at'], 'status_events_created_index');
  });
  await knex.schema.alterTable('messages', (table) => {
    table.dropIndex(['created_at'], 'messages_created_index');
  });
}
