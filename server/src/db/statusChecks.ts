/**
 * A table's `<table>_status_valid` check lists the statuses a row may hold (messages, campaigns). New
 * statuses are added to whatever the list holds now (never by restating it), so migrations from
 * different branches that each add one (`cancelled`, `unknown`) compose in any order.
 *
 * PostgreSQL: the constraint is dropped and added again. SQLite cannot alter a CHECK; widening
 * one does not change the file format or invalidate any row, so the table's stored definition is
 * edited in place (SQLite's documented procedure for such changes, "Making Other Kinds Of Table
 * Schema Changes" in its ALTER TABLE page) instead of copying every message into a new table.
 */
import type { Knex } from 'knex';
import { isPostgres } from './knex';


function quotedValues(definition: string): string[] {
  return [...definition.matchAll(/'([a-z_]+)'/g)].map((match) => match[1] as string);
}

function checkSql(statuses: readonly string[]): string {
  return `status in (${statuses.map((s) => `'${s}'`).join(', ')})`;
}

interface SqliteConnection {
  prepare(sql: string): { get(...params: unknown[]): unknown; run(...params: unknown[]): unknown };
  pragma(source: string, options?: { simple: boolean }): unknown;
  unsafeMode(on: boolean): unknown;
}

/** Adds `statuses` to the ones the messages table accepts (a no-op for those already there). */
export async function allowMessageStatuses(knex: Knex, statuses: readonly string[]): Promise<void> {
  await allowStatuses(knex, 'messages', statuses);
}

/** Adds `statuses` to the ones the campaigns table accepts. */
export async function allowCampaignStatuses(knex: Knex, statuses: readonly string[]): Promise<void> {
  await allowStatuses(knex, 'campaigns', statuses);
}

async function allowStatuses(knex: Knex, tableName: 'messages' | 'campaigns', statuses: readonly string[]): Promise<void> {
  const CONSTRAINT = `${tableName}_status_valid`;
  if (isPostgres(knex)) {
    const { rows } = (await knex.raw(
      `select pg_get_constraintdef(c.oid) as definition from pg_constraint c join pg_class t on t.oid = c.conrelid
        where c.conname = ? and t.relname = ? and t.relnamespace = current_schema()::regnamespace`,
      [CONSTRAINT, tableName],
    )) as { rows: { definition: string }[] };
    const current = quotedValues(rows[0]?.definition ?? '');
    const wanted = [...new Set([...current, ...statuses])];
    if (rows.length > 0 && wanted.length === current.length) return;
    await knex.raw(`alter table ${tableName} drop constraint if exists ${CONSTRAINT}`);
    await knex.raw(`alter table ${tableName} add constraint ${CONSTRAINT} check (${checkSql(wanted)})`);
    return;
  }
  const connection = (await (knex.client as unknown as { acquireConnection(): Promise<SqliteConnection> }).acquireConnection()) as SqliteConnection;
  try {
    const table = connection.prepare(`select sql from sqlite_master where type = 'table' and name = ?`).get(tableName) as { sql: string } | undefined;
    if (!table) throw new Error(`${tableName} table missing`);
    const pattern = new RegExp(`(constraint\\s+[\`"']?${CONSTRAINT}[\`"']?\\s+check\\s*\\()\\s*[\`"]?status[\`"]?\\s+in\\s*\\(([^)]*)\\)\\s*(\\))`, 'i');
    const match = pattern.exec(table.sql);
    if (!match) throw new Error(`${CONSTRAINT} not found in: ${table.sql}`);
    const current = quotedValues(match[2] as string);
    const wanted = [...new Set([...current, ...statuses])];
    if (wanted.length === current.length) return;
    const sql = table.sql.replace(pattern, `$1${checkSql(wanted)}$3`);
    const version = Number(connection.pragma('schema_version', { simple: true }));
    connection.unsafeMode(true);
    try {
      connection.pragma('writable_schema = ON');
      connection.prepare(`update sqlite_master set sql = ? where type = 'table' and name = ?`).run(sql, tableName);
      connection.pragma(`schema_version = ${version + 1}`);
      connection.pragma('writable_schema = OFF');
    } finally {
      connection.unsafeMode(false);
    }
  } finally {
    await (knex.client as unknown as { releaseConnection(connection: unknown): Promise<void> }).releaseConnection(connection);
  }
}
