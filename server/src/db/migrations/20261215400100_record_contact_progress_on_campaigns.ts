import type { Knex } from 'knex';

/**
 * How far the contact book has taken in each campaign's messages: the last message id recorded
 * and how many recipients that covered. The contacts worker records a campaign's recipients as
 * contacts after acceptance, a batch at a time, and moves these marks in the same transaction
 * (docs/decisions/2026-12-07-contacts-from-sends.md). Campaigns from before start at nothing, so
 * their recipients (still within the messages' retention) become contacts too.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('campaigns', (table) => {
    table.bigInteger('contacts_last_message_id').notNullable().defaultTo(0);
    table.integer('contacts_recorded').notNullable().defaultTo(0);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('campaigns', (table) => {
    table.dropColumn('contacts_recorded');
    table.dropColumn('contacts_last_message_id');
  });
}
