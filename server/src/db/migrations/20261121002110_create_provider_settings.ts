import type { Knex } from 'knex';
import { createdUpdated } from '../columns';

/**
 * A user's third-party channel provider settings (spec 001 "Provider settings"): the channel id
 * and its API key, stored only encrypted and never sent back.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('provider_settings', (table) => {
    table.increments('id').primary();
    table.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE').unique('provider_settings_user_unique');
    table.string('provider', 20).notNullable().defaultTo('channel');
    table.string('channel_id', 128).notNullable();
    table.text('api_key_encrypted').nullable();
    createdUpdated(table);
    table.index(['channel_id'], 'provider_settings_channel_index');
    table.check("provider in ('channel')", [], 'provider_settings_provider_valid');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('provider_settings');
}
