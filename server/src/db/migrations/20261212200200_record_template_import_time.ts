import type { Knex } from 'knex';
import { timestamp } from '../columns';

/**
 * When a template was imported by a sync from Meta (approved there, never built in Sandesh);
 * null for templates made here. Meta's review stands for the administrator's on these.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('templates', (table) => {
    timestamp(table, 'imported_at').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('templates', (table) => {
    table.dropColumn('imported_at');
  });
}
