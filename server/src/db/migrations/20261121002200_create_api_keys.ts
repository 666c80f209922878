import type { Knex } from 'knex';
import { timestamp } from '../columns';

/**
 * Keys for the public send API. Only the SHA-256 of a key is kept: keys are 256 random bits, so
 * a slow hash would add nothing against guessing and would cost a hash per API request. The
 * prefix (first 12 characters) is what the owner sees afterwards to tell keys apart.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('api_keys', (table) => {
    table.increments('id').primary();
    table.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    table.string('name', 100).notNullable();
    table.string('prefix', 16).notNullable();
    table.string('key_hash', 64).notNullable().unique('api_keys_key_hash_unique');
    // Requests per 15 minutes for this key, set by an administrator; null = the per-IP default.
    // Spelt per15 (not per_15) so that the snake-case mapper turns it into rateLimitPer15Min and back.
    table.integer('rate_limit_per15_min').nullable();
    timestamp(table, 'last_used_at').nullable();
    timestamp(table, 'revoked_at').nullable();
    timestamp(table, 'created_at').notNullable();
    table.index(['user_id', 'revoked_at'], 'api_keys_user_revoked_index');
    table.check('rate_limit_per15_min is null or rate_limit_per15_min > 0', [], 'api_keys_rate_limit_positive');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('api_keys');
}
