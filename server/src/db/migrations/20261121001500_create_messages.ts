import type { Knex } from 'knex';
import { timestamp } from '../columns';

/**
 * One row per recipient. Status only moves forward: queued -> sending -> sent -> delivered ->
 * read, or failed; duplicate and suppressed rows are terminal from the start and never charged.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('messages', (table) => {
    table.bigIncrements('id').primary();
    table.integer('campaign_id').notNullable().references('id').inTable('campaigns').onDelete('CASCADE');
    table.integer('user_id').notNullable();
    table.string('recipient', 15).notNullable();
    table.string('status', 12).notNullable();
    table.bigInteger('price_units').notNullable().defaultTo(0);
    table.text('variables').nullable();
    // sha256 of user, template, recipient and variable values: Duplicate Blocked looks it up.
    table.string('dedupe_key', 64).notNullable();
    table.string('provider_message_id', 128).nullable().unique('messages_provider_message_id_unique');
    table.integer('error_code').nullable();
    table.string('error_message', 500).nullable();
    table.integer('attempts').notNullable().defaultTo(0);
    timestamp(table, 'next_attempt_at').nullable();
    timestamp(table, 'lease_until').nullable();
    table.boolean('refunded').notNullable().defaultTo(false);
    timestamp(table, 'created_at').notNullable();
    timestamp(table, 'updated_at').notNullable();
    timestamp(table, 'sent_at').nullable();
    timestamp(table, 'delivered_at').nullable();
    timestamp(table, 'read_at').nullable();
    timestamp(table, 'failed_at').nullable();
    table.index(['campaign_id', 'status'], 'messages_campaign_status_index');
    table.index(['status', 'next_attempt_at'], 'messages_dispatch_index');
    table.index(['user_id', 'created_at'], 'messages_user_created_index');
    table.index(['dedupe_key', 'created_at'], 'messages_dedupe_index');
    table.check("status in ('queued', 'sending', 'sent', 'delivered', 'read', 'failed', 'duplicate', 'suppressed')", [], 'messages_status_valid');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('messages');
}
