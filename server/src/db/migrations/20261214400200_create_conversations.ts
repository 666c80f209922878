import type { Knex } from 'knex';
import { timestamp } from '../columns';

/**
 * One row per contact a user talks with: what the Replies list shows and pages through (newest
 * first), kept up to date as inbound messages are applied and replies are sent, so the list never
 * groups the message table. `last_inbound_at` opens Meta's 24-hour customer service window.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('conversations', (table) => {
    table.increments('id').primary();
    table.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    table.string('contact', 20).notNullable();
    table.string('phone_number_id', 128).notNullable();
    table.string('profile_name', 200).nullable();
    table.string('last_kind', 20).nullable();
    table.string('last_text', 300).nullable();
    table.string('last_direction', 3).nullable();
    table.integer('last_campaign_id').nullable();
    table.integer('unread_count').notNullable().defaultTo(0);
    timestamp(table, 'last_message_at').notNullable();
    timestamp(table, 'last_inbound_at').nullable();
    timestamp(table, 'created_at').notNullable();
    table.unique(['user_id', 'contact'], { indexName: 'conversations_user_contact_unique' });
    table.index(['user_id', 'last_message_at', 'id'], 'conversations_user_recent_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('conversations');
}
