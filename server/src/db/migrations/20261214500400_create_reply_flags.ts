import type { Knex } from 'knex';
import { timestamp } from '../columns';

/**
 * Replies that sound like an opt-out without being one ("Cancel", "please stop sending"): kept
 * for the user to decide (suppress or dismiss), never acted on by themselves. One per incoming
 * message (Meta may deliver a webhook twice).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('reply_flags', (table) => {
    table.increments('id').primary();
    table.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    table.string('recipient', 15).notNullable();
    table.string('provider_message_id', 200).notNullable();
    table.string('text', 1000).notNullable();
    timestamp(table, 'received_at').notNullable();
    timestamp(table, 'decided_at').nullable();
    table.string('decision', 20).nullable();
    table.unique(['user_id', 'provider_message_id'], { indexName: 'reply_flags_user_message_unique' });
    table.index(['user_id', 'decided_at', 'id'], 'reply_flags_user_open');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('reply_flags');
}
