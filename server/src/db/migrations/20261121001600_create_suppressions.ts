import type { Knex } from 'knex';
import { timestamp } from '../columns';

/** Recipients who opted out of a user's messages (STOP replies, user_preferences, error 131050). */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('suppressions', (table) => {
    table.increments('id').primary();
    table.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    table.string('recipient', 15).notNullable();
    table.string('reason', 40).notNullable();
    timestamp(table, 'created_at').notNullable();
    table.unique(['user_id', 'recipient'], { indexName: 'suppressions_user_recipient_unique' });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('suppressions');
}
