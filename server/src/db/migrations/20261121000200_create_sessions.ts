import type { Knex } from 'knex';
import { timestamp } from '../columns';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('sessions', (table) => {
    table.increments('id').primary();
    table.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    // SHA-256 of the random token; the token itself is only ever in the cookie or keychain.
    table.string('token_hash', 64).notNullable().unique('sessions_token_hash_unique');
    table.string('kind', 10).notNullable().defaultTo('web');
    timestamp(table, 'created_at').notNullable();
    timestamp(table, 'last_activity_at').notNullable();
    timestamp(table, 'expires_at').notNullable();
    table.string('ip', 64).nullable();
    table.string('user_agent', 255).nullable();
    table.index(['user_id'], 'sessions_user_id_index');
    table.index(['last_activity_at'], 'sessions_last_activity_index');
    table.check("kind in ('web', 'desktop')", [], 'sessions_kind_valid');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('sessions');
}
