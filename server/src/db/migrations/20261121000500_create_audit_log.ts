import type { Knex } from 'knex';
import { timestamp } from '../columns';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('audit_log', (table) => {
    table.bigIncrements('id').primary();
    table.integer('actor_user_id').nullable();
    table.string('action', 60).notNullable();
    table.string('target_type', 30).nullable();
    table.string('target_id', 100).nullable();
    table.text('details').nullable();
    table.string('ip', 64).nullable();
    timestamp(table, 'created_at').notNullable();
    table.index(['created_at'], 'audit_log_created_index');
    table.index(['target_type', 'target_id'], 'audit_log_target_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('audit_log');
}
