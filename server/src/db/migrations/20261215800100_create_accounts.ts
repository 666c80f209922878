import type { Knex } from 'knex';
import { timestamp } from '../columns';

/**
 * A customer account and the people in it. An account's id is its first owner's user id and
 * stays so after an ownership transfer: every table that scopes by `user_id` keeps meaning "the
 * account" without a rewrite (docs/decisions/2026-12-07-accounts-keyed-by-owner-user.md).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('accounts', (table) => {
    table.integer('id').primary().references('id').inTable('users').onDelete('CASCADE');
    table.string('name', 100).notNullable();
    timestamp(table, 'created_at').notNullable();
  });
  await knex.schema.createTable('account_members', (table) => {
    table.increments('id').primary();
    table.integer('account_id').notNullable().references('id').inTable('accounts').onDelete('CASCADE');
    table.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    table.string('role', 16).notNullable();
    timestamp(table, 'created_at').notNullable();
    table.unique(['account_id', 'user_id'], { indexName: 'account_members_account_user_unique' });
    table.index(['user_id'], 'account_members_user_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('account_members');
  await knex.schema.dropTable('accounts');
}
