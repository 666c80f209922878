import type { Knex } from 'knex';

/**
 * Rows written before suppressions had a source kept a code in `reason`: it becomes the source,
 * and the reason is left empty (no person wrote one).
 */
const SOURCE_OF_CODE: Record<string, string> = { stop_reply: 'keyword_reply', user_preferences: 'preference_webhook', error_131050: 'send_error' };

export async function up(knex: Knex): Promise<void> {
  for (const [code, source] of Object.entries(SOURCE_OF_CODE)) {
    await knex('suppressions').where({ reason: code }).update({ source, reason: '' });
  }
}

export async function down(): Promise<void> {
  // Irreversible by design: the codes carried nothing the source does not.
}
