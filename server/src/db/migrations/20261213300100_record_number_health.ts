import type { Knex } from 'knex';
import { timestamp } from '../columns';

/**
 * A Cloud API number's health as Meta reports it (`GET /{phone-number-id}` and the
 * `phone_number_quality_update` / `account_update` webhooks): quality rating, messaging limit tier,
 * throughput level and display name status, when they were last read, and why the last read failed.
 * Null until first read (sandbox and channel numbers keep them null).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('whatsapp_numbers', (table) => {
    table.string('quality_rating', 20).nullable();
    table.string('messaging_limit_tier', 30).nullable();
    table.string('throughput_level', 30).nullable();
    table.string('name_status', 40).nullable();
    timestamp(table, 'health_updated_at').nullable();
    table.string('health_error', 300).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('whatsapp_numbers', (table) => {
    table.dropColumn('health_error');
    table.dropColumn('health_updated_at');
    table.dropColumn('name_status');
    table.dropColumn('throughput_level');
    table.dropColumn('messaging_limit_tier');
    table.dropColumn('quality_rating');
  });
}
