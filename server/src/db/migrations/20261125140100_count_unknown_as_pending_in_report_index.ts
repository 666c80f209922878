import type { Knex } from 'knex';

/**
 * A send whose outcome is `unknown` is waiting for its status webhook, so reports show
 * it as pending like queued and sending. The report status index is on the grouping expression,
 * and both databases use an expression index only for the identical expression, so the index is
 * rebuilt on the new grouping. `reports/status.ts` holds the same text (a unit test keeps them equal).
 */
export const INDEXED_REPORT_STATUS_EXPRESSION =
  "case when status in ('queued', 'sending', 'unknown') then 'pending' when status = 'suppressed' then 'failed' else status end";

const PREVIOUS_EXPRESSION = "case when status in ('queued', 'sending') then 'pending' when status = 'suppressed' then 'failed' else status end";

async function rebuild(knex: Knex, expression: string): Promise<void> {
  await knex.raw('drop index messages_user_report_status_index');
  await knex.raw(`create index messages_user_report_status_index on messages (user_id, (${expression}), created_at, id, status, campaign_id)`);
}

export async function up(knex: Knex): Promise<void> {
  await rebuild(knex, INDEXED_REPORT_STATUS_EXPRESSION);
}

export async function down(knex: Knex): Promise<void> {
  await rebuild(knex, PREVIOUS_EXPRESSION);
}
