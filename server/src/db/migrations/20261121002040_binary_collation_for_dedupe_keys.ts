import type { Knex } from 'knex';
import { isPostgres } from '../knex';

/**
 * Dedupe keys are hex digests: compared byte by byte ("C" collation) their index is about twice
 * as cheap to insert into on PostgreSQL as under the database's linguistic collation, which
 * matters when a campaign writes a million rows. SQLite already compares text as bytes.
 */
export async function up(knex: Knex): Promise<void> {
  if (!isPostgres(knex)) return;
  await knex.raw('alter table messages alter column dedupe_key type varchar(64) collate "C"');
}

export async function down(knex: Knex): Promise<void> {
  if (!isPostgres(knex)) return;
  await knex.raw('alter table messages alter column dedupe_key type varchar(64) collate "default"');
}
