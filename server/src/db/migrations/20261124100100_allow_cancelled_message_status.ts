import type { Knex } from 'knex';
import { allowMessageStatuses } from '../statusChecks';

/**
 * A message a cancel stopped before it was sent is `cancelled`, not `failed`: it is no
 * failure of delivery, and must stay out of failure rates and resend-to-failed.
 */
export async function up(knex: Knex): Promise<void> {
  await allowMessageStatuses(knex, ['cancelled']);
}

/** Irreversible on purpose: rows may hold `cancelled` by now, and narrowing the check would refuse them. */
export async function down(): Promise<void> {}
