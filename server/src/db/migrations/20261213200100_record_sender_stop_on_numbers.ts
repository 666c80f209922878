import type { Knex } from 'knex';

/**
 * A sender number Meta refused to send for (an expired token, a policy block, a locked account,
 * no payment method, a number not registered, missing permissions: sending/providers/metaErrors.ts)
 * is stopped: `sending_stopped_at` says since when (null while it sends), with Meta's code and
 * the reason as Meta gave it. Its campaigns wait until the credentials are fixed or the owner
 * resumes it (sending/senderHealth.ts).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('whatsapp_numbers', (table) => {
    table.timestamp('sending_stopped_at', { useTz: true }).nullable();
    table.integer('sending_stopped_code').nullable();
    table.string('sending_stopped_reason', 500).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('whatsapp_numbers', (table) => {
    table.dropColumn('sending_stopped_at');
    table.dropColumn('sending_stopped_code');
    table.dropColumn('sending_stopped_reason');
  });
}
