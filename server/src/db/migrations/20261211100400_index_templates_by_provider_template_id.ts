import type { Knex } from 'knex';

/** Meta's template events name the template by Meta's id first: found by index, not by scan. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('templates', (table) => {
    table.index(['provider_template_id'], 'templates_provider_template_id_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('templates', (table) => {
    table.dropIndex(['provider_template_id'], 'templates_provider_template_id_index');
  });
}
