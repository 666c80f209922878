import type { Knex } from 'knex';

/** A send about to be retried after its settle window looks for a stored status carrying its reference. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('status_events', (table) => {
    table.index(['callback_data'], 'status_events_callback_data_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('status_events', (table) => {
    table.dropIndex(['callback_data'], 'status_events_callback_data_index');
  });
}
