import type { Knex } from 'knex';
import { timestamp } from '../columns';

/**
 * One row per daily template sync. Each instance ticks; the first tick at or after the hour
 * claims the Indian day by inserting `daily:<YYYY-MM-DD>` into the unique `run_key`, so of several
 * instances sharing the database exactly one reads every account's templates from Meta that day.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('template_sync_runs', (table) => {
    table.increments('id').primary();
    table.string('run_key', 40).notNullable().unique('template_sync_runs_run_key_unique');
    timestamp(table, 'started_at').notNullable();
    timestamp(table, 'finished_at').nullable();
    table.integer('accounts').notNullable().defaultTo(0);
    table.integer('imported').notNullable().defaultTo(0);
    table.integer('updated').notNullable().defaultTo(0);
    table.integer('unchanged').notNullable().defaultTo(0);
    table.integer('failed').notNullable().defaultTo(0);
    /** Accounts whose templates could not be read (Meta refused or did not answer). */
    table.integer('accounts_failed').notNullable().defaultTo(0);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('template_sync_runs');
}
