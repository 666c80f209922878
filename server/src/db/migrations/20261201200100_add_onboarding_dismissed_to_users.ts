import type { Knex } from 'knex';
import { timestamp } from '../columns';

/** The dashboard's onboarding checklist: when the user dismissed it (null: still shown until complete). */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (table) => {
    timestamp(table, 'onboarding_dismissed_at').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (table) => {
    table.dropColumn('onboarding_dismissed_at');
  });
}
