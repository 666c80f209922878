import type { Knex } from 'knex';

/**
 * The billing address and GST state a user may enter in their profile, printed on their tax
 * invoices; the state (a GST state code) is the place of supply when known. Both optional.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (table) => {
    table.string('billing_address', 300).nullable();
    table.string('billing_state', 2).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (table) => {
    table.dropColumn('billing_state');
    table.dropColumn('billing_address');
  });
}
