import type { Knex } from 'knex';
import { isPostgres } from '../knex';

/**
 * Counters for rate-limiter-flexible's PostgreSQL store (login and OTP throttling shared by
 * every server instance). Its expected shape: key, points, expire (epoch ms). SQLite runs one
 * process and keeps these counters in memory, so the table is only made on PostgreSQL.
 */
export async function up(knex: Knex): Promise<void> {
  if (!isPostgres(knex)) return;
  await knex.schema.createTable('rate_limits', (table) => {
    table.string('key', 255).primary();
    table.integer('points').notNullable().defaultTo(0);
    table.bigInteger('expire').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('rate_limits');
}
