import type { Knex } from 'knex';
import { timestamp } from '../columns';

/**
 * The devices each user has signed in from (a sign-in from a new device is told to the
 * user). A browser is known by its long-lived `sandesh_device` cookie, the desktop app by the id it
 * keeps in its settings; only the SHA-256 of that id is stored, so the table names no usable id.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('user_devices', (table) => {
    table.increments('id').primary();
    table.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    table.string('device_hash', 64).notNullable();
    table.string('label', 120).notNullable();
    timestamp(table, 'first_seen_at').notNullable();
    timestamp(table, 'last_seen_at').notNullable();
    table.unique(['user_id', 'device_hash'], { indexName: 'user_devices_user_device_unique' });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('user_devices');
}
