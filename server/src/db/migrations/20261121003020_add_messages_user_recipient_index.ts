import type { Knex } from 'knex';

/** The reports' recipient filter is a prefix of the stored digits: a range on this index. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('messages', (table) => {
    table.index(['user_id', 'recipient'], 'messages_user_recipient_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('messages', (table) => {
    table.dropIndex(['user_id', 'recipient'], 'messages_user_recipient_index');
  });
}
