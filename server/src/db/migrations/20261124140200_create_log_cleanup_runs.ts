import type { Knex } from 'knex';
import { timestamp } from '../columns';

/**
 * One row per log cleanup, manual or daily. The daily job claims its day by inserting
 * `daily:<YYYY-MM-DD>` into the unique `run_key`: of several instances ticking at 02:00 UTC only
 * the one whose insert lands runs it, and a day missed while every instance was down is run at
 * the next start.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('log_cleanup_runs', (table) => {
    table.increments('id').primary();
    table.string('run_key', 40).nullable().unique('log_cleanup_runs_run_key_unique');
    table.string('trigger', 10).notNullable();
    table.integer('admin_id').nullable();
    timestamp(table, 'threshold').notNullable();
    timestamp(table, 'started_at').notNullable();
    timestamp(table, 'finished_at').nullable();
    table.integer('messages_deleted').notNullable().defaultTo(0);
    table.integer('campaigns_deleted').notNullable().defaultTo(0);
    table.integer('status_events_deleted').notNullable().defaultTo(0);
    table.integer('files_deleted').notNullable().defaultTo(0);
    table.string('error', 500).nullable();
    table.index(['trigger', 'started_at'], 'log_cleanup_runs_trigger_index');
    table.check("\"trigger\" in ('daily', 'manual')", [], 'log_cleanup_runs_trigger_valid');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('log_cleanup_runs');
}
