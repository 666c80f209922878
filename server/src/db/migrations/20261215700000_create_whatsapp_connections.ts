import type { Knex } from 'knex';
import { createdUpdated, timestamp } from '../columns';

/**
 * A customer's Embedded Signup attempts: one row per attempt with the step it reached, so that a
 * half-finished connection can be resumed or removed. The business token and the registration PIN
 * are sealed (security/secretBox.ts); the PIN is cleared once the number is registered.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('whatsapp_connections', (table) => {
    table.increments('id').primary();
    table.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    table.string('waba_id', 40).notNullable();
    table.string('phone_number_id', 40).notNullable();
    // in_progress | failed | connected | disconnected
    table.string('status', 20).notNullable();
    // The step running, failed or next: exchange, subscribe, register, read, store, templates, done.
    table.string('step', 20).notNullable();
    table.boolean('sandbox').notNullable().defaultTo(false);
    table.text('access_token_encrypted').nullable();
    table.text('pin_encrypted').nullable();
    table.string('error_code', 60).nullable();
    table.text('error_message').nullable();
    table.integer('meta_code').nullable();
    table.integer('meta_subcode').nullable();
    table.string('display_phone_number', 40).nullable();
    table.string('verified_name', 200).nullable();
    table.string('quality_rating', 20).nullable();
    table.string('messaging_limit_tier', 40).nullable();
    table.integer('templates_imported').nullable();
    table.integer('whatsapp_number_id').nullable().references('id').inTable('whatsapp_numbers').onDelete('SET NULL');
    timestamp(table, 'connected_at').nullable();
    timestamp(table, 'disconnected_at').nullable();
    createdUpdated(table);
    table.index(['user_id', 'id'], 'whatsapp_connections_user_index');
    table.index(['phone_number_id'], 'whatsapp_connections_phone_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('whatsapp_connections');
}
