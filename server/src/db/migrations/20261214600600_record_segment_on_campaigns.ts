import type { Knex } from 'knex';

/**
 * A campaign sent to a segment keeps the segment's id and its filter as it was at the send: the
 * segment may change or go later, and the campaign still says whom it was meant for.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('campaigns', (table) => {
    table.integer('segment_id').nullable();
    table.text('segment_filter').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('campaigns', (table) => {
    table.dropColumn('segment_filter');
    table.dropColumn('segment_id');
  });
}
