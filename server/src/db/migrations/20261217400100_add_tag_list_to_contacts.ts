import type { Knex } from 'knex';
import { isPostgres } from '../knex';

/**
 * A copy of each contact's tags on its own row, `|tag|tag|` (each tag with `%` written `%25` and
 * `|` written `%7C`, so a delimited tag is found exactly), or empty for none. `contact_tags` stays
 * the source of truth and the contacts service keeps the copy in the transaction that changes the
 * tags; a segment's tag conditions then test the row being scanned instead of building the set of
 * a tag's contacts, so a count with tag and attribute conditions is one pass over one table
 * (docs/decisions/2026-12-07-contact-tags-on-the-row.md).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('contacts', (table) => {
    table.text('tag_list').notNullable().defaultTo('');
  });
  const encoded = "replace(replace(t.tag, '%', '%25'), '|', '%7C')";
  const aggregate = isPostgres(knex) ? `string_agg(${encoded}, '|')` : `group_concat(${encoded}, '|')`;
  await knex.raw(
    `update contacts set tag_list = '|' || (select ${aggregate} from contact_tags t where t.contact_id = contacts.id) || '|'
     where exists (select 1 from contact_tags t where t.contact_id = contacts.id)`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('contacts', (table) => {
    table.dropColumn('tag_list');
  });
}
