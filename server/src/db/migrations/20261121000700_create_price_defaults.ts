import type { Knex } from 'knex';
import { timestamp } from '../columns';

/** The global default price per message category, one row (id 1), in credit units. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('price_defaults', (table) => {
    table.integer('id').primary();
    table.bigInteger('marketing_units').notNullable();
    table.bigInteger('utility_units').notNullable();
    table.bigInteger('authentication_units').notNullable();
    timestamp(table, 'updated_at').nullable();
    table.integer('updated_by').nullable();
    table.check('id = 1', [], 'price_defaults_single_row');
    table.check('marketing_units >= 0 and utility_units >= 0 and authentication_units >= 0', [], 'price_defaults_non_negative');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('price_defaults');
}
