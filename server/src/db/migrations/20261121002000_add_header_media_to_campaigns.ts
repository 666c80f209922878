import type { Knex } from 'knex';

/**
 * A campaign's header image (quick send's upload, or the template's own sample): sent as a public
 * link, so the dispatcher needs only the campaign row to build each message.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('campaigns', (table) => {
    table.string('header_media_type', 10).nullable();
    table.string('header_media_path', 300).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('campaigns', (table) => {
    table.dropColumn('header_media_path');
    table.dropColumn('header_media_type');
  });
}
