import type { Knex } from 'knex';
import { isPostgres } from '../knex';

/**
 * A channel provider's channel id may be up to 128 characters (spec 001 §9) and becomes the
 * `phone_number_id` of its sender number, which was made 100 wide. SQLite does not enforce
 * varchar lengths (and altering a column there rebuilds the table under the campaigns' foreign
 * keys), so only PostgreSQL changes.
 */
export async function up(knex: Knex): Promise<void> {
  if (!isPostgres(knex)) return;
  await knex.schema.alterTable('whatsapp_numbers', (table) => {
    table.string('phone_number_id', 128).notNullable().alter();
  });
}

export async function down(knex: Knex): Promise<void> {
  if (!isPostgres(knex)) return;
  await knex.schema.alterTable('whatsapp_numbers', (table) => {
    table.string('phone_number_id', 100).notNullable().alter();
  });
}
