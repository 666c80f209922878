/**
 * Column helpers that keep the SQLite/PostgreSQL differences in one place (Ghost's habit).
 * Timestamps are timestamptz on PostgreSQL; on SQLite they hold ISO-8601 UTC strings, which
 * sort and compare correctly as text. The server always binds ISO strings.
 */
import type { Knex } from 'knex';

export function timestamp(table: Knex.CreateTableBuilder, name: string): Knex.ColumnBuilder {
  return table.timestamp(name, { useTz: true });
}

export function createdUpdated(table: Knex.CreateTableBuilder): void {
  timestamp(table, 'created_at').notNullable();
  timestamp(table, 'updated_at').notNullable();
}

/** Current time as the server binds it. */
export function nowIso(now: Date = new Date()): string {
  return now.toISOString();
}
