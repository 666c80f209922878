import type { Knex } from 'knex';

/** The submission retry loop looks for templates whose next try is due: found by index, not by scan. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('templates', (table) => {
    table.index(['meta_submit_due_at'], 'templates_meta_submit_due_at_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('templates', (table) => {
    table.dropIndex(['meta_submit_due_at'], 'templates_meta_submit_due_at_index');
  });
}
