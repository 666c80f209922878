import type { Knex } from 'knex';

/**
 * Our own send reference as the provider echoes it (`biz_opaque_callback_data`): a status event
 * carrying it settles a message whose send ended without an answer.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('status_events', (table) => {
    table.string('callback_data', 128).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('status_events', (table) => {
    table.dropColumn('callback_data');
  });
}
