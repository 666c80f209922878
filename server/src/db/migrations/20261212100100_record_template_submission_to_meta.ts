import type { Knex } from 'knex';
import { timestamp } from '../columns';

/**
 * A template's submission to Meta after the administrator's approval: when Meta took it, the last
 * failure of a try that did not reach Meta (retried later), how many tries were made, when the
 * next is due, and until when one instance holds it (several instances never submit it twice).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('templates', (table) => {
    timestamp(table, 'meta_submitted_at').nullable();
    table.string('meta_submit_error', 500).nullable();
    table.integer('meta_submit_attempts').notNullable().defaultTo(0);
    timestamp(table, 'meta_submit_due_at').nullable();
    timestamp(table, 'meta_submit_claimed_until').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('templates', (table) => {
    table.dropColumn('meta_submitted_at');
    table.dropColumn('meta_submit_error');
    table.dropColumn('meta_submit_attempts');
    table.dropColumn('meta_submit_due_at');
    table.dropColumn('meta_submit_claimed_until');
  });
}
