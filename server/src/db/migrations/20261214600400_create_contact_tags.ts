import type { Knex } from 'knex';

/**
 * A contact's tags. The owner is kept beside the tag so that a segment's tag condition reads one
 * range of `(user_id, tag)` and answers contact ids without touching the contacts.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('contact_tags', (table) => {
    table.bigInteger('contact_id').notNullable().references('id').inTable('contacts').onDelete('CASCADE');
    table.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    table.string('tag', 64).notNullable();
    table.primary(['contact_id', 'tag']);
    table.index(['user_id', 'tag', 'contact_id'], 'contact_tags_user_tag_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('contact_tags');
}
