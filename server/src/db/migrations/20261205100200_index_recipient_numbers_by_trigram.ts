import type { Knex } from 'knex';
import { isPostgres } from '../knex';

/** The schema pg_trgm is installed in, or null where it is not installed. */
async function trigramSchema(knex: Knex): Promise<string | null> {
  const { rows } = (await knex.raw(
    "select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'",
  )) as { rows: { schema: string }[] };
  return rows[0]?.schema ?? null;
}

/**
 * A trigram index on the users' numbers: `recipient like '%98765%'` then reads the few numbers
 * holding those digits instead of testing them all (a whole number's search 14 ms against 94-120 ms
 * for the scan of a million, measured 2026-11-28). pg_trgm ships with PostgreSQL and is a trusted
 * extension (PostgreSQL 13 and later: a user who may create in the database may install it). It
 * goes in `public`, not the instance's schema: one installation serves every schema, and dropping
 * a schema must not drop it from under the others. Where it cannot be installed the search
 * scans the numbers table instead, which is still no more rows than before.
 */
export async function up(knex: Knex): Promise<void> {
  if (!isPostgres(knex)) return;
  let schema = await trigramSchema(knex);
  if (schema === null) {
    // The migration's transaction must outlive a refusal (no privilege, no contrib package, or
    // another schema's migration installing it at the same moment).
    await knex.raw('savepoint install_pg_trgm');
    try {
      await knex.raw('create extension if not exists pg_trgm with schema public');
      await knex.raw('release savepoint install_pg_trgm');
    } catch {
      await knex.raw('rollback to savepoint install_pg_trgm');
    }
    schema = await trigramSchema(knex);
  }
  if (schema === null) return;
  await knex.raw(`create index recipient_numbers_trigram_index on recipient_numbers using gin (recipient ??.gin_trgm_ops)`, [schema]);
}

export async function down(knex: Knex): Promise<void> {
  if (!isPostgres(knex)) return;
  await knex.raw('drop index if exists recipient_numbers_trigram_index');
}
