import type { Knex } from 'knex';
import { allowMessageStatuses } from '../statusChecks';

/**
 * `unknown`: a send whose outcome we could not learn (a timeout or a reset after the
 * request was written) waits there for a status webhook carrying our reference.
 */
export async function up(knex: Knex): Promise<void> {
  await allowMessageStatuses(knex, ['unknown']);
}

/** Irreversible on purpose: rows may hold `unknown` by now, and narrowing the check would refuse them. */
export async function down(): Promise<void> {}
