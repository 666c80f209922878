import type { Knex } from 'knex';
import { timestamp } from '../columns';

/**
 * Idempotent sends: one row per API key owner and Idempotency-Key, holding a digest of
 * the request (path and body) and, once the request finished, the response to answer again. A
 * row is `processing` while its request runs; the unique key makes a concurrent twin wait.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('idempotency_keys', (table) => {
    table.bigIncrements('id').primary();
    table.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    table.string('idempotency_key', 255).notNullable();
    table.string('request_hash', 64).notNullable();
    table.string('state', 12).notNullable();
    table.integer('response_status').nullable();
    table.text('response_body').nullable();
    timestamp(table, 'created_at').notNullable();
    timestamp(table, 'expires_at').notNullable();
    table.unique(['user_id', 'idempotency_key'], { indexName: 'idempotency_keys_user_key_unique' });
    // The cleanup removes expired rows oldest first.
    table.index(['expires_at'], 'idempotency_keys_expires_index');
    table.check("state in ('processing', 'done')", [], 'idempotency_keys_state_valid');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('idempotency_keys');
}
