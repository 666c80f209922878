import type { Knex } from 'knex';
import { createdUpdated } from '../columns';

/** Saved audience filters: a segment's `filter` is the JSON the API takes, kept as text. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('segments', (table) => {
    table.increments('id').primary();
    table.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    table.string('name', 100).notNullable();
    table.text('filter').notNullable();
    createdUpdated(table);
    table.index(['user_id', 'id'], 'segments_user_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('segments');
}
