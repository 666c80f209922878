import type { Knex } from 'knex';
import { timestamp } from '../columns';

/** One-time invitations to join an account; only the token's hash is kept. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('team_invites', (table) => {
    table.increments('id').primary();
    table.integer('account_id').notNullable().references('id').inTable('accounts').onDelete('CASCADE');
    table.string('token_hash', 64).notNullable().unique();
    table.string('email', 254).nullable();
    table.string('phone', 20).nullable();
    table.string('role', 16).notNullable();
    table.integer('invited_by_user_id').nullable();
    timestamp(table, 'created_at').notNullable();
    timestamp(table, 'expires_at').notNullable();
    timestamp(table, 'accepted_at').nullable();
    table.integer('accepted_by_user_id').nullable();
    timestamp(table, 'revoked_at').nullable();
    table.index(['account_id', 'id'], 'team_invites_account_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('team_invites');
}
