import type { Knex } from 'knex';
import { createdUpdated, timestamp } from '../columns';

/**
 * Top-up orders and their payments. The order id and the payment id are unique; the credit is
 * decided from this row (amount and owner), never from what a client sends.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('payments', (table) => {
    table.increments('id').primary();
    table.integer('user_id').notNullable().references('id').inTable('users').onDelete('RESTRICT');
    table.string('provider', 20).notNullable();
    table.string('order_id', 100).notNullable().unique('payments_order_id_unique');
    table.string('payment_id', 100).nullable().unique('payments_payment_id_unique');
    table.bigInteger('amount_paise').notNullable();
    table.bigInteger('credit_units').notNullable();
    table.string('currency', 3).notNullable().defaultTo('INR');
    // created -> paid, or created -> failed -> paid (a retried payment can still succeed).
    table.string('status', 20).notNullable().defaultTo('created');
    table.string('credited_by', 20).nullable();
    createdUpdated(table);
    timestamp(table, 'paid_at').nullable();
    table.index(['user_id', 'created_at'], 'payments_user_index');
    table.check("provider in ('razorpay', 'sandbox')", [], 'payments_provider_valid');
    table.check("status in ('created', 'failed', 'paid')", [], 'payments_status_valid');
    table.check('amount_paise > 0 and credit_units > 0', [], 'payments_amount_positive');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('payments');
}
