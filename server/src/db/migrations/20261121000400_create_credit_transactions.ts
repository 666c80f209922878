import type { Knex } from 'knex';
import { timestamp } from '../columns';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('credit_transactions', (table) => {
    table.bigIncrements('id').primary();
    table.integer('user_id').notNullable().references('id').inTable('users').onDelete('RESTRICT');
    // Type code: contains ADD for credits (spec 000 §3), e.g. ADMIN_ADD, TOPUP_ADD, CAMPAIGN_DEBIT.
    table.string('type', 40).notNullable();
    table.bigInteger('amount').notNullable();
    table.bigInteger('balance_after').notNullable();
    table.string('description', 255).notNullable();
    table.string('template_name', 100).nullable();
    table.string('template_category', 20).nullable();
    table.string('reference_type', 30).nullable();
    table.string('reference_id', 100).nullable();
    // Written in the same transaction as the balance change: a retried operation cannot apply twice.
    table.string('idempotency_key', 150).notNullable().unique('credit_transactions_idempotency_unique');
    table.integer('actor_user_id').nullable();
    timestamp(table, 'created_at').notNullable();
    table.index(['user_id', 'id'], 'credit_transactions_user_index');
    table.check('balance_after >= 0', [], 'credit_transactions_balance_non_negative');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('credit_transactions');
}
