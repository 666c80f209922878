import type { Knex } from 'knex';

/**
 * Who in the account started a top-up (its ledger row is stamped with them when the payment is
 * captured, possibly by Razorpay's webhook with no one signed in) and who uploaded a file.
 * Nullable: rows made before teams existed have no member behind them.
 */
const TABLES = ['payments', 'uploads'] as const;

export async function up(knex: Knex): Promise<void> {
  for (const name of TABLES) {
    await knex.schema.alterTable(name, (table) => {
      table.integer('actor_user_id').nullable();
    });
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const name of TABLES) {
    await knex.schema.alterTable(name, (table) => {
      table.dropColumn('actor_user_id');
    });
  }
}
