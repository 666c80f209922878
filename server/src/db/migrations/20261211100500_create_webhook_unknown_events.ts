import type { Knex } from 'knex';
import { timestamp } from '../columns';

/**
 * Signed webhook changes we do not act on (a field Meta added, an account alert), kept for an
 * administrator to read. Rows older than the retention are deleted as new ones arrive, so the
 * table stays small; the index on the time makes that delete cheap.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhook_unknown_events', (table) => {
    table.increments('id').primary();
    table.string('field', 100).notNullable();
    table.string('waba_id', 100).nullable();
    table.text('body').notNullable();
    timestamp(table, 'received_at').notNullable();
    table.index(['received_at'], 'webhook_unknown_events_received_at_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('webhook_unknown_events');
}
