import type { Knex } from 'knex';
import { timestamp } from '../columns';

/**
 * Every message of a conversation with a contact that is not a campaign's template message: what
 * contacts send us (every kind of Meta's webhook) and the service replies our users answer with.
 * Inbound rows are written as the webhook is acknowledged (`applied_at` null) and applied in
 * batches: linked to the campaign message they answer, their media fetched, integrators told.
 * `(user_id, direction, provider_message_id)` is unique so that a webhook Meta delivers twice is
 * stored once.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('conversation_messages', (table) => {
    table.bigIncrements('id').primary();
    table.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    table.string('contact', 20).notNullable();
    table.string('phone_number_id', 128).notNullable();
    table.string('direction', 3).notNullable();
    table.string('kind', 20).notNullable();
    table.string('provider_message_id', 128).nullable();
    table.text('text').nullable();
    table.text('details').nullable();
    table.string('profile_name', 200).nullable();
    table.string('context_provider_id', 128).nullable();
    table.bigInteger('answers_message_id').nullable();
    table.integer('campaign_id').nullable();
    table.string('button_text', 255).nullable();
    table.string('button_payload', 255).nullable();
    table.string('media_id', 128).nullable();
    table.string('media_mime', 100).nullable();
    table.string('media_filename', 255).nullable();
    table.string('media_path', 255).nullable();
    table.integer('media_size').nullable();
    table.string('media_state', 12).nullable();
    table.string('status', 12).nullable();
    table.integer('error_code').nullable();
    table.string('error_message', 500).nullable();
    table.integer('price_units').notNullable().defaultTo(0);
    timestamp(table, 'occurred_at').notNullable();
    timestamp(table, 'applied_at').nullable();
    timestamp(table, 'created_at').notNullable();
    table.check(`direction in ('in', 'out')`, [], 'conversation_messages_direction');
    table.unique(['user_id', 'direction', 'provider_message_id'], { indexName: 'conversation_messages_provider_unique' });
    table.index(['user_id', 'contact', 'id'], 'conversation_messages_thread_index');
    table.index(['campaign_id', 'direction', 'contact'], 'conversation_messages_campaign_index');
    table.index(['applied_at', 'id'], 'conversation_messages_pending_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('conversation_messages');
}
