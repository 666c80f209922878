import type { Knex } from 'knex';

/**
 * Why a campaign is paused when the platform paused it rather than its owner (`template_paused`:
 * Meta paused its template), and the status it had then (`running` or `scheduled`), to which
 * the template's reinstatement returns it. Both null for a campaign its owner paused.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('campaigns', (table) => {
    table.string('pause_reason', 40).nullable();
    table.string('held_from', 20).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('campaigns', (table) => {
    table.dropColumn('pause_reason');
    table.dropColumn('held_from');
  });
}
