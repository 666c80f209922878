import type { Knex } from 'knex';

/**
 * Fencing for the dispatcher: every claim writes a fresh `claim_token`, and a worker
 * sends and writes results only while the row still carries its token. `handed_at` marks the
 * moment a worker committed to sending a message (just before the provider request is written):
 * a claim whose lease lapsed is taken back only if it was not handed yet; a handed one may have
 * reached the provider and waits in `unknown` for a status webhook instead of being resent.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('messages', (table) => {
    table.string('claim_token', 32).nullable();
    table.timestamp('handed_at', { useTz: true }).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('messages', (table) => {
    table.dropColumn('handed_at');
    table.dropColumn('claim_token');
  });
}
