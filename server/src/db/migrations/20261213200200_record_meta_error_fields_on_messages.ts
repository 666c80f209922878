import type { Knex } from 'knex';

/**
 * What Meta said about a failed message, field by field as its error objects carry them (the send's
 * answer or a status webhook's `errors[]`): `error_code` already holds the code and
 * `error_message` our one-line text; these keep the subcode, Meta's title, `error_data.details`,
 * `is_transient` and the `fbtrace_id` Meta's support asks for.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('messages', (table) => {
    table.integer('error_subcode').nullable();
    table.string('error_title', 500).nullable();
    table.text('error_details').nullable();
    table.boolean('error_transient').nullable();
    table.string('error_fbtrace_id', 100).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('messages', (table) => {
    table.dropColumn('error_subcode');
    table.dropColumn('error_title');
    table.dropColumn('error_details');
    table.dropColumn('error_transient');
    table.dropColumn('error_fbtrace_id');
  });
}
