import type { Knex } from 'knex';

/** The code cancels used to record on `failed` rows before `cancelled` existed. */
const LEGACY_CANCELLED_ERROR_CODE = -5;

/** Messages stored as failed with the cancel code become `cancelled` (their refunds stand as they are). */
export async function up(knex: Knex): Promise<void> {
  await knex('messages').where({ status: 'failed', error_code: LEGACY_CANCELLED_ERROR_CODE }).update({ status: 'cancelled', error_code: null });
}

/** Irreversible on purpose: after this, cancelled rows are told apart by their status alone. */
export async function down(): Promise<void> {}
