import type { Knex } from 'knex';

/**
 * A fourth price category, `service`: a free-form reply inside Meta's customer service window.
 * Meta does not charge them, so the default is 0; the admin may set a default and per-user price
 * like the others (null in user_prices: the default applies).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('price_defaults', (table) => {
    table.bigInteger('service_units').notNullable().defaultTo(0);
  });
  await knex.schema.alterTable('user_prices', (table) => {
    table.bigInteger('service_units').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('user_prices', (table) => {
    table.dropColumn('service_units');
  });
  await knex.schema.alterTable('price_defaults', (table) => {
    table.dropColumn('service_units');
  });
}
