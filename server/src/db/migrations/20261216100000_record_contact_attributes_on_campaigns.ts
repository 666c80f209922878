import type { Knex } from 'knex';

/**
 * A personalised send whose sender ticked "remember these columns" keeps which contact attribute
 * each template variable's column becomes (JSON, variable to attribute name). The contacts
 * activity worker reads it when it turns the campaign's messages into contacts, so the values are
 * written in its batches and never on the send's acceptance.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('campaigns', (table) => {
    table.text('contact_attributes').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('campaigns', (table) => {
    table.dropColumn('contact_attributes');
  });
}
