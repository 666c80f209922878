import type { Knex } from 'knex';
import { timestamp } from '../columns';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('password_resets', (table) => {
    table.increments('id').primary();
    table.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    table.string('code_hash', 255).notNullable();
    table.string('phone', 20).notNullable();
    table.integer('attempts').notNullable().defaultTo(0);
    timestamp(table, 'created_at').notNullable();
    timestamp(table, 'expires_at').notNullable();
    timestamp(table, 'verified_at').nullable();
    // Proof of a verified code for the reset call: hashed, short-lived, single use.
    table.string('reset_token_hash', 64).nullable().unique('password_resets_token_unique');
    timestamp(table, 'reset_expires_at').nullable();
    timestamp(table, 'used_at').nullable();
    table.index(['user_id', 'created_at'], 'password_resets_user_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('password_resets');
}
