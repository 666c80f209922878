import type { Knex } from 'knex';
import { createdUpdated } from '../columns';

/** Sender numbers: a user's own (Cloud API or channel provider) or the simulator's sandbox number. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('whatsapp_numbers', (table) => {
    table.increments('id').primary();
    table.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    table.string('provider', 20).notNullable();
    table.string('phone_number_id', 100).notNullable();
    table.string('display_number', 20).notNullable();
    table.string('label', 100).notNullable();
    table.integer('messages_per_second').notNullable().defaultTo(80);
    table.boolean('is_sandbox').notNullable().defaultTo(false);
    table.boolean('is_active').notNullable().defaultTo(true);
    createdUpdated(table);
    table.unique(['provider', 'phone_number_id'], { indexName: 'whatsapp_numbers_provider_id_unique' });
    table.index(['user_id'], 'whatsapp_numbers_user_index');
    table.check("provider in ('simulator', 'cloud_api', 'channel')", [], 'whatsapp_numbers_provider_valid');
    table.check('messages_per_second > 0', [], 'whatsapp_numbers_mps_positive');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('whatsapp_numbers');
}
