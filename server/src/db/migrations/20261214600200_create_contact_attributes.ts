import type { Knex } from 'knex';
import { timestamp } from '../columns';

/**
 * The attributes an owner defines for contacts (text, number or date), each held in one slot
 * column of its type on `contacts`. A value is checked against its attribute's type when written,
 * so filters compare like with like.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('contact_attributes', (table) => {
    table.increments('id').primary();
    table.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    table.string('name', 64).notNullable();
    table.string('type', 10).notNullable();
    table.integer('slot').notNullable();
    timestamp(table, 'created_at').notNullable();
    table.unique(['user_id', 'name'], { indexName: 'contact_attributes_user_name_unique' });
    table.unique(['user_id', 'type', 'slot'], { indexName: 'contact_attributes_user_slot_unique' });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('contact_attributes');
}
