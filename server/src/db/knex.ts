import fs from 'node:fs';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { knexSnakeCaseMappers, UniqueViolationError } from 'objection';
import pg from 'pg';
import type { AppConfig } from '../config';

export type { Knex };
export type DatabaseKind = AppConfig['database']['kind'];

const PG_INT8_OID = 20;
// Money and counts are bigint columns; below 2^53 they are exact JS numbers, which every
// balance this product can hold is (9e15 units = 9e11 rupees). Anything larger is a bug.
pg.types.setTypeParser(PG_INT8_OID, (value: string) => {
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed)) throw new Error(`int8 value out of safe range: ${value}`);
  return parsed;
});

interface SqliteStatement {
  readonly busy: boolean;
}

interface SqliteConnection {
  pragma(sql: string): unknown;
  prepare(sql: string): SqliteStatement;
}

const STATEMENT_CACHE_SIZE = 1_000;

/**
 * knex prepares every query anew, which costs more than running it for the short statements a
 * request makes. Statements are kept by their SQL and reused; one still iterating (a streamed
 * export) is never handed out twice: a fresh one is prepared instead.
 */
function cachePreparedStatements(connection: SqliteConnection): void {
  const prepare = connection.prepare.bind(connection);
  const cache = new Map<string, SqliteStatement>();
  connection.prepare = (sql: string) => {
    const hit = cache.get(sql);
    if (hit && !hit.busy) return hit;
    const statement = prepare(sql);
    if (!hit) {
      cache.set(sql, statement);
      if (cache.size > STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
    }
    return statement;
  };
}

/** The knex configuration for either database, used by the server and by knexfile.ts. */
export function knexConfig(database: AppConfig['database']): Knex.Config {
  // camelCase in code, snake_case in the database, for models and plain knex queries alike.
  const mappers = knexSnakeCaseMappers();
  if (database.kind === 'sqlite') {
    fs.mkdirSync(path.dirname(database.filename), { recursive: true });
    return {
      ...mappers,
      client: 'better-sqlite3',
      connection: { filename: database.filename },
      useNullAsDefault: true,
      pool: {
        min: 1,
        max: 1,
        afterCreate(connection: SqliteConnection, done: (err: Error | null, conn: unknown) => void) {
          // WAL lets readers run while a write commits; foreign keys are off by default in SQLite.
          connection.pragma('journal_mode = WAL');
          connection.pragma('foreign_keys = ON');
          connection.pragma('busy_timeout = 5000');
          connection.pragma('synchronous = NORMAL');
          // 64 MB of page cache: a million-row campaign's index inserts stay in memory.
          connection.pragma('cache_size = -65536');
          cachePreparedStatements(connection);
          done(null, connection);
        },
      },
    };
  }
  return {
    ...mappers,
    client: 'pg',
    connection: database.url,
    searchPath: database.schema ? [database.schema] : undefined,
    pool: { min: 0, max: database.poolMax },
  };
}

export function createDatabase(database: AppConfig['database']): Knex {
  return knexFactory(knexConfig(database));
}

/** The database product and version, for the health check. */
export async function databaseVersion(db: Knex, kind: DatabaseKind): Promise<string> {
  if (kind === 'sqlite') {
    const row = (await db.raw('select sqlite_version() as version')) as { version: string }[];
    return row[0]?.version ?? 'unknown';
  }
  const result = (await db.raw('show server_version')) as { rows: { server_version: string }[] };
  return result.rows[0]?.server_version ?? 'unknown';
}

/** True when the error is a unique-constraint violation on either database. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  // Objection wraps driver errors (UniqueViolationError) and keeps the original as nativeError.
  if (error instanceof UniqueViolationError) return true;
  const code = (error as { code?: unknown }).code;
  if (code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE') return true;
  return isUniqueViolation((error as { nativeError?: unknown }).nativeError ?? null);
}

/** The constraint or column a unique violation names, when the driver says. */
export function uniqueViolationTarget(error: unknown): string {
  if (typeof error !== 'object' || error === null) return '';
  const { constraint, message, columns, nativeError } = error as { constraint?: string; message?: string; columns?: string[]; nativeError?: unknown };
  const inner = nativeError && nativeError !== error ? uniqueViolationTarget(nativeError) : '';
  return `${constraint ?? ''} ${(columns ?? []).join(' ')} ${message ?? ''} ${inner}`;
}

/**
 * Whether a knex instance (or transaction) talks to PostgreSQL rather than SQLite: the one place
 * the SQL dialect is asked, for row locks, `unnest`/`any(?)` batches and date arithmetic.
 */
export function isPostgres(db: Knex): boolean {
  return db.client.config.client === 'pg';
}

/**
 * Runs `announce` once what was written through `db` is visible to every other connection: at
 * once outside a transaction, after the outermost transaction commits inside one (a savepoint's
 * release is not a commit), never when it rolls back. Listeners read the database on their own
 * connections (webhook events, notifications, progress), so announcing before the commit let
 * them read the rows as they were: a `message.failed` event carrying status `sent`.
 * Knex settles a transaction rolled back by hand without an error (`trx.rollback()`) as it settles
 * a commit, so code that announces through this rolls back by throwing (or with an error).
 * A listener that throws goes to `onError` on both paths: after the commit nobody awaits the
 * announcement, and an unhandled rejection would stop the process for a change already made.
 */
export function afterCommit(db: Knex, announce: () => void, onError: (error: unknown) => void): void {
  const run = () => {
    try {
      announce();
    } catch (error) {
      onError(error);
    }
  };
  if (!db.isTransaction) {
    run();
    return;
  }
  let outermost = db as Knex.Transaction;
  while (outermost.parentTransaction) outermost = outermost.parentTransaction;
  outermost.executionPromise.then(run, () => undefined);
}
