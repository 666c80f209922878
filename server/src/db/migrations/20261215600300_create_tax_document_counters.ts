import type { Knex } from 'knex';

/**
 * The last number given per series and financial year. Incremented in the transaction that
 * credits the wallet and writes the document: a rolled-back top-up gives its number back, and
 * the row lock makes instances sharing the database take numbers one after the other.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('tax_document_counters', (table) => {
    table.string('series', 16).notNullable();
    table.string('financial_year', 7).notNullable();
    table.integer('last_sequence').notNullable();
    table.primary(['series', 'financial_year']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('tax_document_counters');
}
