import type { Knex } from 'knex';

/**
 * A stored status event keeps the whole error Meta reported in its `errors[]` (title, details,
 * subcode, is_transient, fbtrace_id) as JSON, so the failed message gets every field when the
 * event is applied later; `error_code` and `error_message` stay as they were.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('status_events', (table) => {
    table.text('error_json').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('status_events', (table) => {
    table.dropColumn('error_json');
  });
}
