import type { Knex } from 'knex';
import { createdUpdated } from '../columns';

/**
 * A user's WhatsApp Business details with Meta (spec 001 §3 BusinessInfo). Its existence is what
 * makes a user "Configured". Secrets are stored only encrypted (server/src/security/secretBox.ts)
 * and are never sent back.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('business_infos', (table) => {
    table.increments('id').primary();
    table.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE').unique('business_infos_user_unique');
    table.string('business_name', 100).nullable();
    // Digits with country code, no plus (docs/decisions/2026-11-21-sending-rules.md).
    table.string('whatsapp_number', 20).nullable();
    table.string('whatsapp_number_id', 100).nullable();
    table.string('waba_id', 100).nullable();
    table.text('access_token_encrypted').nullable();
    table.text('webhook_verify_token_encrypted').nullable();
    table.text('app_secret_encrypted').nullable();
    table.string('webhook_url', 500).nullable();
    table.boolean('is_active').notNullable().defaultTo(true);
    createdUpdated(table);
    // Webhooks name the number id: finding its app secret must not scan the table.
    table.index(['whatsapp_number_id'], 'business_infos_number_id_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('business_infos');
}
