import type { Knex } from 'knex';
import { isPostgres } from '../knex';

/**
 * A large campaign's recipients as acceptance writes them: one lean row each, keyed by
 * the campaign and the row's place in the send, with no other index and no foreign key. The
 * seven indexes and the foreign key of `messages` were most of accepting a million recipients;
 * the materialiser (`sending/materialiser.ts`) moves these rows into `messages` a chunk at a time
 * right after the commit, and deletes them as it does. `status_code` is acceptance's fate of the
 * row (0 queued, 1 Duplicate Blocked, 2 opted out). SQLite keeps the rows in the key's order
 * itself (WITHOUT ROWID): no second b-tree for the key.
 */
export async function up(knex: Knex): Promise<void> {
  if (isPostgres(knex)) {
    await knex.raw(`create table campaign_recipients (
      campaign_id bigint not null, position integer not null, recipient text not null, variables text,
      dedupe_key text not null, status_code smallint not null, primary key (campaign_id, position))`);
  } else {
    await knex.raw(`create table campaign_recipients (
      campaign_id integer not null, position integer not null, recipient text not null, variables text,
      dedupe_key text not null, status_code integer not null, primary key (campaign_id, position)) without rowid`);
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table campaign_recipients');
}
