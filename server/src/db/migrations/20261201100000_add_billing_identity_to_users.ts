import type { Knex } from 'knex';

/**
 * The business name and GSTIN a user may enter in their profile, printed on their top-up
 * receipts. Both optional; the GSTIN is validated (shape and check character) by the
 * profile schema before it is stored, upper-cased.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (table) => {
    table.string('business_name', 120).nullable();
    table.string('gstin', 15).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (table) => {
    table.dropColumn('gstin');
    table.dropColumn('business_name');
  });
}
