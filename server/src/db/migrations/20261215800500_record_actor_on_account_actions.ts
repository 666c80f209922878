import type { Knex } from 'knex';

/**
 * Who in the account did it: the member's user id beside the account's. Nullable, since rows
 * made before teams existed, by an API key or by the platform have no member behind them.
 * (credit_transactions already carries `actor_user_id`.)
 */
const TABLES = ['campaigns', 'templates', 'api_keys', 'conversation_messages'] as const;

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
