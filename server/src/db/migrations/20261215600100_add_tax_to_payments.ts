import type { Knex } from 'knex';

/**
 * A top-up order keeps the tax it was priced with (null: no GST): the invoice issued when it is
 * paid uses these figures, whatever the configuration says by then, so the buyer is invoiced
 * exactly what the checkout showed.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('payments', (table) => {
    table.integer('taxable_paise').nullable();
    table.integer('cgst_paise').nullable();
    table.integer('sgst_paise').nullable();
    table.integer('igst_paise').nullable();
    table.string('place_of_supply', 2).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('payments', (table) => {
    table.dropColumn('place_of_supply');
    table.dropColumn('igst_paise');
    table.dropColumn('sgst_paise');
    table.dropColumn('cgst_paise');
    table.dropColumn('taxable_paise');
  });
}
