import type { Knex } from 'knex';

const CHECK = 'messages_status_valid';

/** The statuses the check allows now, read from the database (other migrations may have widened it). */
async function allowedStatuses(knex: Knex): Promise<string[]> {
  let definition: string;
  if (knex.client.config.client === 'pg') {
    const result = (await knex.raw(`select pg_get_constraintdef(oid) as def from pg_constraint where conname = ? and conrelid = 'messages'::regclass`, [CHECK])) as { rows: { def: string }[] };
    definition = result.rows[0]?.def ?? '';
  } else {
    const row = (await knex.raw(`select sql from sqlite_master where type = 'table' and name = 'messages'`)) as { sql: string }[];
    definition = /constraint\s+messages_status_valid\s+check\s*\((.*?)\)\s*[,)]/is.exec(row[0]?.sql ?? '')?.[1] ?? '';
  }
  const statuses = [...definition.matchAll(/'([a-z_]+)'/g)].map((match) => match[1] as string);
  if (statuses.length === 0) throw new Error(`${CHECK}: could not read the allowed statuses`);
  return statuses;
}

async function replaceCheck(knex: Knex, statuses: readonly string[]): Promise<void> {
  const list = statuses.map((status) => `'${status}'`).join(', ');
  await knex.schema.alterTable('messages', (table) => {
    table.dropChecks([CHECK]);
    table.check(`status in (${list})`, [], CHECK);
  });
}

/**
 * `unknown` (issue 12): a send whose outcome we could not learn (a timeout or a reset after the
 * request was written) waits there for a status webhook carrying our reference. The check is
 * widened from what it holds now, so other migrations' statuses stay (SQLite rebuilds the table).
 */
export async function up(knex: Knex): Promise<void> {
  const statuses = await allowedStatuses(knex);
  if (statuses.includes('unknown')) return;
  await replaceCheck(knex, [...statuses, 'unknown']);
}

export async function down(knex: Knex): Promise<void> {
  await knex('messages').where({ status: 'unknown' }).update({ status: 'queued' });
  await replaceCheck(
    knex,
    (await allowedStatuses(knex)).filter((status) => status !== 'unknown'),
  );
}
