import type { Knex } from 'knex';

/** The buyer's billing address and state as they stood when the document was issued. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('tax_documents', (table) => {
    table.string('buyer_address', 300).nullable();
    table.string('buyer_state', 2).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('tax_documents', (table) => {
    table.dropColumn('buyer_state');
    table.dropColumn('buyer_address');
  });
}
