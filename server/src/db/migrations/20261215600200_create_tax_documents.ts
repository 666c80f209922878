import type { Knex } from 'knex';
import { timestamp } from '../columns';

/**
 * Tax invoices and credit notes, as issued: every figure and name printed is kept on the row, so
 * a document reads the same after the profile or the configuration changes. A credit note points
 * at its invoice. Numbers are unique, and so is each (series, financial year, sequence).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('tax_documents', (table) => {
    table.increments('id').primary();
    table.string('series', 16).notNullable();
    table.string('number', 16).notNullable().unique('tax_documents_number_unique');
    table.string('financial_year', 7).notNullable();
    table.integer('sequence').notNullable();
    table.integer('user_id').notNullable().references('id').inTable('users').onDelete('RESTRICT');
    table.integer('payment_id').nullable().references('id').inTable('payments').onDelete('RESTRICT');
    table.integer('invoice_id').nullable().references('id').inTable('tax_documents').onDelete('RESTRICT');
    table.bigInteger('credit_transaction_id').nullable();
    timestamp(table, 'issued_at').notNullable();
    table.string('supplier_name', 200).notNullable();
    table.string('supplier_address', 500).notNullable();
    table.string('supplier_gstin', 15).notNullable();
    table.string('sac', 6).notNullable();
    table.integer('rate_basis_points').notNullable();
    table.string('buyer_name', 200).notNullable();
    table.string('buyer_business_name', 200).nullable();
    table.string('buyer_email', 255).nullable();
    table.string('buyer_gstin', 15).nullable();
    table.string('place_of_supply', 2).notNullable();
    table.integer('taxable_paise').notNullable();
    table.integer('cgst_paise').notNullable();
    table.integer('sgst_paise').notNullable();
    table.integer('igst_paise').notNullable();
    table.integer('total_paise').notNullable();
    table.string('reason', 255).nullable();
    table.unique(['series', 'financial_year', 'sequence'], { indexName: 'tax_documents_sequence_unique' });
    table.unique(['payment_id', 'series'], { indexName: 'tax_documents_payment_unique' });
    table.index(['user_id', 'id'], 'tax_documents_user_index');
    table.index(['issued_at'], 'tax_documents_issued_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('tax_documents');
}
