import type { Knex } from 'knex';

/**
 * Refunds of top-ups made at the payment gateway (Razorpay's `refund.processed`), one row per
 * gateway refund id so a repeated webhook changes nothing. What the wallet could not give back
 * (its credits were already spent) is kept as the shortfall, for an administrator to settle.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('payment_refunds', (table) => {
    table.increments('id').primary();
    table.integer('payment_id').notNullable().references('id').inTable('payments').onDelete('CASCADE');
    table.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    table.string('refund_id', 64).notNullable().unique();
    table.bigInteger('amount_paise').notNullable();
    table.bigInteger('credit_units').notNullable();
    table.bigInteger('debited_units').notNullable();
    table.bigInteger('shortfall_units').notNullable();
    table.bigInteger('credit_transaction_id').nullable();
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.index(['payment_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('payment_refunds');
}
