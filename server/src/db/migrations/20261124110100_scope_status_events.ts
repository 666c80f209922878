import type { Knex } from 'knex';

/**
 * Stored provider statuses remember the sender number whose secret signed them (they apply only
 * to messages sent from it) and whether that secret is one the platform holds (only then is a
 * reported failure refunded at once). Rows stored before this were verified the old way: they
 * count as unscoped and untrusted.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('status_events', (table) => {
    table.string('phone_number_id', 128).nullable();
    table.boolean('refund_trusted').notNullable().defaultTo(false);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('status_events', (table) => {
    table.dropColumn('refund_trusted');
    table.dropColumn('phone_number_id');
  });
}
