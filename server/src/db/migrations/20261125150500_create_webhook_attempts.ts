import type { Knex } from 'knex';
import { timestamp } from '../columns';

/** Each attempt of a delivery: when, the HTTP status or the error, the latency, the next retry. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhook_attempts', (table) => {
    table.bigIncrements('id').primary();
    table.bigInteger('delivery_id').notNullable().references('id').inTable('webhook_deliveries').onDelete('CASCADE');
    timestamp(table, 'attempted_at').notNullable();
    table.integer('http_status').nullable();
    table.integer('latency_ms').notNullable();
    table.string('error', 300).nullable();
    timestamp(table, 'next_retry_at').nullable();
    table.index(['delivery_id', 'id'], 'webhook_attempts_delivery_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('webhook_attempts');
}
