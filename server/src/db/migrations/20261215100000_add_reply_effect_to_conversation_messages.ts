import type { Knex } from 'knex';

/**
 * What the opt-out rule made of an incoming message, kept on the message itself: `opt_out`,
 * `opt_in`, `flag` (left for the user to decide), or null (nothing, or not a reply it reads).
 * Set when the batch that applies the message runs the rule (conversations/service.ts).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('conversation_messages', (table) => {
    table.string('reply_effect', 10).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('conversation_messages', (table) => {
    table.dropColumn('reply_effect');
  });
}
