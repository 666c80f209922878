import type { Knex } from 'knex';
import { allowCampaignStatuses } from '../statusChecks';

/** `scheduled` waits for its time; `failed` is a scheduled campaign that could not start. */
export async function up(knex: Knex): Promise<void> {
  await allowCampaignStatuses(knex, ['scheduled', 'failed']);
}

/** Irreversible on purpose: rows may hold the new statuses by now, and narrowing the check would refuse them. */
export async function down(): Promise<void> {}
