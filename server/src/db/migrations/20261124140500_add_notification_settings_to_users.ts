import type { Knex } from 'knex';
import { timestamp } from '../columns';

/**
 * The low-balance alert: the threshold the user sets on the wallet page (credit units; null means
 * the default) and when the last alert went out (at most one a day).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (table) => {
    table.bigInteger('low_balance_threshold_units').nullable();
    timestamp(table, 'low_balance_notified_at').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (table) => {
    table.dropColumn('low_balance_notified_at');
    table.dropColumn('low_balance_threshold_units');
  });
}
