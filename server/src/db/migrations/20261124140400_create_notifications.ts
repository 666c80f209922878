import type { Knex } from 'knex';
import { timestamp } from '../columns';

/** Notifications kept per user (the header bell), so they survive a reload and reach every device. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('notifications', (table) => {
    table.bigIncrements('id').primary();
    table.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    table.string('type', 10).notNullable();
    table.string('kind', 40).notNullable();
    // Events that may be reported more than once (a campaign's completion) post once per key.
    table.string('dedupe_key', 80).nullable();
    table.string('title', 200).notNullable();
    table.string('message', 1000).notNullable();
    timestamp(table, 'read_at').nullable();
    timestamp(table, 'created_at').notNullable();
    table.index(['user_id', 'id'], 'notifications_user_index');
    table.unique(['user_id', 'dedupe_key'], { indexName: 'notifications_dedupe_unique' });
    table.check("type in ('success', 'error', 'warning', 'info')", [], 'notifications_type_valid');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('notifications');
}
