/**
 * Where PostgreSQL and SQLite differ in a query a service writes: row locks, and the Indian day of
 * a timestamp. Services call these by what they need; only this folder asks which database it is.
 */
import type { Knex } from 'knex';
import { isPostgres, type DatabaseKind } from './knex';

/**
 * Row locks for read-then-write sequences. PostgreSQL needs them when instances run in parallel;
 * SQLite has a single writer (and knex warns on FOR UPDATE there), so it is skipped.
 */
export function forUpdateIfSupported<Q extends { forUpdate(): Q }>(query: Q, db: Knex): Q {
  return isPostgres(db) ? query.forUpdate() : query;
}

/**
 * A work-queue read: the rows are locked for this transaction and rows another instance has locked
 * are passed over, so instances take different rows. SQLite has a single writer (and knex warns on
 * FOR UPDATE there), so the query is left as it is.
 */
export function forUpdateSkipLocked<Q extends { forUpdate(): Q; skipLocked(): Q }>(query: Q, db: Knex): Q {
  return isPostgres(db) ? query.forUpdate().skipLocked() : query;
}

/**
 * A shared lock on `tables`' rows the query reads, so no other transaction changes them until this
 * one ends; skipped on SQLite, whose single writer already keeps them.
 */
export function forShareIfSupported<Q extends { forShare(...tables: string[]): Q }>(query: Q, db: Knex, ...tables: string[]): Q {
  return isPostgres(db) ? query.forShare(...tables) : query;
}

/** The calendar day in India of a timestamp column, as YYYY-MM-DD, in SQL (India keeps no daylight saving). */
export function istDaySql(db: Knex, column: string): string {
  return isPostgres(db) ? `to_char(${column} at time zone 'Asia/Kolkata', 'YYYY-MM-DD')` : `strftime('%Y-%m-%d', ${column}, '+330 minutes')`;
}

/** The one of two choices made for the database `db` talks to: a strategy or a figure picked once, where the two differ. */
export function forDatabase<T>(db: Knex, choices: Readonly<Record<DatabaseKind, T>>): T {
  return isPostgres(db) ? choices.postgresql : choices.sqlite;
}
