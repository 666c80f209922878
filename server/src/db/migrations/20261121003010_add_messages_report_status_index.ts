import type { Knex } from 'knex';

/**
 * The reports' status filter groups raw statuses (pending = queued or sending, failed = failed or
 * suppressed). An index on that grouping, ordered like the list, gives every filter value one
 * ordered range to read, count or skip through, instead of merging two. Both databases use an
 * expression index only for the identical expression, so the reports service builds its filter
 * from this constant. status and campaign_id ride at the end so that counts, the template filter
 * and the summary are answered from the index alone (PostgreSQL reads an expression index without
 * the table only when the expression's column is in the index too).
 */
export const REPORT_STATUS_EXPRESSION = "case when status in ('queued', 'sending') then 'pending' when status = 'suppressed' then 'failed' else status end";

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`create index messages_user_report_status_index on messages (user_id, (${REPORT_STATUS_EXPRESSION}), created_at, id, status, campaign_id)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index messages_user_report_status_index');
}
