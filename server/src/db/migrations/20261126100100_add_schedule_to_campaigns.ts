import type { Knex } from 'knex';
import { timestamp } from '../columns';

/**
 * Scheduled sends: when a campaign accepted for later starts. The starter looks for
 * `scheduled` campaigns that are due, so the index leads with the status.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('campaigns', (table) => {
    timestamp(table, 'scheduled_at').nullable();
    table.index(['status', 'scheduled_at'], 'campaigns_status_scheduled_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('campaigns', (table) => {
    table.dropIndex(['status', 'scheduled_at'], 'campaigns_status_scheduled_index');
    table.dropColumn('scheduled_at');
  });
}
