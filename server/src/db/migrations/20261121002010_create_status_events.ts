import type { Knex } from 'knex';
import { timestamp } from '../columns';

/**
 * Provider status events, stored as the webhook is acknowledged and applied to messages in
 * batches. An event may arrive before the dispatcher has stored the message's provider id (the
 * provider answers the send and posts `sent` almost at once), so unmatched events wait here and
 * are tried again instead of being lost.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('status_events', (table) => {
    table.bigIncrements('id').primary();
    table.string('provider_message_id', 128).notNullable();
    table.string('status', 12).notNullable();
    timestamp(table, 'occurred_at').notNullable();
    table.integer('error_code').nullable();
    table.string('error_message', 500).nullable();
    table.integer('tries').notNullable().defaultTo(0);
    timestamp(table, 'available_at').notNullable();
    timestamp(table, 'created_at').notNullable();
    table.index(['available_at'], 'status_events_available_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('status_events');
}
