import type { Knex } from 'knex';

/**
 * The original name of a campaign's header file: a document header is sent with it as its
 * `filename`, so the recipient sees the file as it was uploaded rather than the stored name.
 * Null for campaigns without a header file and for those accepted before names were kept.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('campaigns', (table) => {
    table.string('header_media_name', 255).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('campaigns', (table) => {
    table.dropColumn('header_media_name');
  });
}
