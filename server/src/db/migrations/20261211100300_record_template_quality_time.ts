import type { Knex } from 'knex';
import { timestamp } from '../columns';

/** When Meta last reported a template's quality (the rating itself has its column already). */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('templates', (table) => {
    timestamp(table, 'quality_updated_at').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('templates', (table) => {
    table.dropColumn('quality_updated_at');
  });
}
