import type { Knex } from 'knex';
import { createdUpdated, timestamp } from '../columns';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('users', (table) => {
    table.increments('id').primary();
    table.string('name', 100).notNullable();
    table.string('email', 254).notNullable();
    table.string('username', 50).notNullable();
    // Lower-cased copies carry the uniqueness, so "Ravi" and "ravi" are one account. A deleted
    // user's keys are cleared, which frees the name and address while the row keeps history.
    table.string('username_key', 50).nullable().unique('users_username_key_unique');
    table.string('email_key', 254).nullable().unique('users_email_key_unique');
    table.string('role', 10).notNullable().defaultTo('user');
    table.string('phone_number', 20).nullable();
    table.string('password_hash', 255).notNullable();
    // Integer credit units (1/10000 rupee). The database itself refuses a negative balance.
    table.bigInteger('credit_balance').notNullable().defaultTo(0);
    table.boolean('is_active').notNullable().defaultTo(true);
    createdUpdated(table);
    timestamp(table, 'deleted_at').nullable();
    table.check("role in ('user', 'admin')", [], 'users_role_valid');
    table.check('credit_balance >= 0', [], 'users_credit_balance_non_negative');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('users');
}
