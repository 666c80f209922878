import type { Knex } from 'knex';
import { timestamp } from '../columns';

/** Per-user custom prices in credit units; null means "use the global default" for that category. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('user_prices', (table) => {
    table.integer('user_id').primary().references('id').inTable('users').onDelete('CASCADE');
    table.bigInteger('marketing_units').nullable();
    table.bigInteger('utility_units').nullable();
    table.bigInteger('authentication_units').nullable();
    timestamp(table, 'updated_at').notNullable();
    table.integer('updated_by').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('user_prices');
}
