import type { Knex } from 'knex';
import { createdUpdated, timestamp } from '../columns';

/**
 * One POST to one endpoint: one event, or up to 100 for an endpoint that takes batches.
 * `pending` until answered 2xx (`succeeded`) or out of retries (`failed`).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhook_deliveries', (table) => {
    table.bigIncrements('id').primary();
    table.integer('endpoint_id').notNullable().references('id').inTable('webhook_endpoints').onDelete('CASCADE');
    table.string('event_id', 40).notNullable();
    table.string('event_type', 40).notNullable();
    table.integer('event_count').notNullable().defaultTo(1);
    // The request body exactly as signed and sent.
    table.text('body').notNullable();
    table.string('state', 10).notNullable();
    table.integer('attempts').notNullable().defaultTo(0);
    timestamp(table, 'next_attempt_at').nullable();
    timestamp(table, 'last_attempt_at').nullable();
    table.integer('last_status').nullable();
    table.integer('last_latency_ms').nullable();
    table.string('last_error', 300).nullable();
    createdUpdated(table);
    // The endpoint's queue in order, and its history newest first.
    table.index(['endpoint_id', 'state', 'id'], 'webhook_deliveries_queue_index');
    table.index(['state', 'next_attempt_at'], 'webhook_deliveries_due_index');
    // An event reaches an endpoint once even when its source reports it twice (campaign completion).
    table.unique(['endpoint_id', 'event_id'], { indexName: 'webhook_deliveries_endpoint_event_unique' });
    table.check("state in ('pending', 'succeeded', 'failed')", [], 'webhook_deliveries_state_valid');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('webhook_deliveries');
}
