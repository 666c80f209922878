import type { Knex } from 'knex';
import { timestamp } from '../columns';

/**
 * Meta's own word on a template beside the spec's status (which the app shows and sends by): its
 * raw status event, the reason it gave, and when it happened.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('templates', (table) => {
    table.string('meta_status', 30).nullable();
    table.string('meta_status_reason', 500).nullable();
    timestamp(table, 'meta_status_at').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('templates', (table) => {
    table.dropColumn('meta_status');
    table.dropColumn('meta_status_reason');
    table.dropColumn('meta_status_at');
  });
}
