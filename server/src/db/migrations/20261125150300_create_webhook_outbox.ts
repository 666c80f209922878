import type { Knex } from 'knex';
import { timestamp } from '../columns';

/**
 * Events waiting to be turned into deliveries. Status changes add one row per batch
 * (a type and the batch's message ids), so the dispatcher and the webhook ingest pay one insert
 * whatever the number of endpoints; the webhook worker expands rows into deliveries.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhook_outbox', (table) => {
    table.bigIncrements('id').primary();
    table.string('type', 40).notNullable();
    // Message events: a JSON array of message ids. Other events: their owner and data.
    table.text('message_ids').nullable();
    table.integer('user_id').nullable();
    // An event id fixed by its source (a campaign completes once), else one is made per event.
    table.string('event_id', 40).nullable();
    table.text('data').nullable();
    timestamp(table, 'created_at').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('webhook_outbox');
}
