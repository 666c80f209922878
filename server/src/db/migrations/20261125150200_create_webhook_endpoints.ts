import type { Knex } from 'knex';
import { createdUpdated, timestamp } from '../columns';

/**
 * Signed delivery webhooks: an integrator's receiving URLs. The secret is sealed with
 * the server's secrets key (it must be read back to sign). `lease_until`/`lease_token` let one
 * instance at a time deliver an endpoint's queue, which keeps deliveries in order.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhook_endpoints', (table) => {
    table.increments('id').primary();
    table.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    table.string('url', 2048).notNullable();
    table.string('description', 200).nullable();
    // JSON array of event types.
    table.text('events').notNullable();
    table.text('secret_sealed').notNullable();
    table.boolean('batch').notNullable().defaultTo(false);
    table.string('status', 10).notNullable().defaultTo('active');
    timestamp(table, 'failing_since').nullable();
    timestamp(table, 'disabled_at').nullable();
    timestamp(table, 'deleted_at').nullable();
    timestamp(table, 'lease_until').nullable();
    table.string('lease_token', 40).nullable();
    createdUpdated(table);
    table.index(['user_id', 'status'], 'webhook_endpoints_user_index');
    table.check("status in ('active', 'disabled')", [], 'webhook_endpoints_status_valid');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('webhook_endpoints');
}
