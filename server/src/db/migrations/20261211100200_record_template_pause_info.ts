import type { Knex } from 'knex';

/** Meta's `other_info` on a pause: its title (which pause it is) and description (for how long). */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('templates', (table) => {
    table.string('pause_title', 100).nullable();
    table.string('pause_description', 1000).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('templates', (table) => {
    table.dropColumn('pause_title');
    table.dropColumn('pause_description');
  });
}
