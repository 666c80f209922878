import type { Knex } from 'knex';

/**
 * A webhook names a number (`whatsapp_number_id`, `channel_id`) or a business (`waba_id`) and is
 * verified with that account's secret: each id must belong to one account only. Earlier
 * duplicates of the nullable ids are kept on the first row that registered them and cleared on
 * later rows (an administrator sees the field empty and re-enters it); a duplicated channel id
 * cannot be cleared, so the migration stops and names the rows.
 */
export async function up(knex: Knex): Promise<void> {
  for (const column of ['whatsapp_number_id', 'waba_id'] as const) {
    const duplicates = (await knex('business_infos').whereNotNull(column).groupBy(column).havingRaw('count(*) > 1').select(column)) as Record<string, string>[];
    for (const row of duplicates) {
      const value = row[column.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase())] ?? row[column];
      const keep = (await knex('business_infos').where(column, value).orderBy('id').first('id')) as { id: number };
      await knex('business_infos').where(column, value).whereNot('id', keep.id).update({ [column]: null });
    }
  }
  const channels = (await knex('provider_settings').groupBy('channel_id').havingRaw('count(*) > 1').select('channel_id')) as Record<string, string>[];
  if (channels.length > 0) {
    throw new Error(`provider_settings.channel_id is shared by several users (${channels.map((c) => Object.values(c)[0]).join(', ')}): give each its own channel id, then start again`);
  }
  await knex.schema.alterTable('business_infos', (table) => {
    table.unique(['whatsapp_number_id'], { indexName: 'business_infos_number_id_unique' });
    table.unique(['waba_id'], { indexName: 'business_infos_waba_id_unique' });
  });
  await knex.schema.alterTable('provider_settings', (table) => {
    table.unique(['channel_id'], { indexName: 'provider_settings_channel_unique' });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('provider_settings', (table) => {
    table.dropUnique(['channel_id'], 'provider_settings_channel_unique');
  });
  await knex.schema.alterTable('business_infos', (table) => {
    table.dropUnique(['waba_id'], 'business_infos_waba_id_unique');
    table.dropUnique(['whatsapp_number_id'], 'business_infos_number_id_unique');
  });
}
