/**
 * The acceptance bench's in-run ceiling: the same recipient rows written as plainly as
 * the database allows, into a table with only a primary key. SQLite: one prepared statement in one
 * transaction (better-sqlite3); PostgreSQL: one COPY (pg-copy-streams). Acceptance is held to 3x this.
 */
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { from as copyFrom } from 'pg-copy-streams';
import type { TestServer } from '../../server/test/server';

export interface BareRecipient {
  to: string;
  variables: Record<string, string>;
}

const TABLE = 'bench_bare_insert';

interface SqliteConnection {
  exec(sql: string): unknown;
  prepare(sql: string): { run(...values: unknown[]): unknown };
  transaction(fn: () => void): () => void;
}
interface PgConnection {
  query(text: string): Promise<unknown>;
  query<T extends NodeJS.WritableStream>(stream: T): T;
}

/** COPY's text format: tab-separated, with backslash, tab and line breaks escaped. */
function copyText(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
}

/** Seconds to write `recipients` (recipient and its variables as JSON) into a fresh primary-key-only table. */
export async function bareInsertSeconds(server: TestServer, recipients: readonly BareRecipient[]): Promise<number> {
  const pool = server.db.client as unknown as { acquireConnection(): Promise<unknown>; releaseConnection(c: unknown): Promise<void> };
  const connection = await pool.acquireConnection();
  try {
    if (server.config.database.kind === 'sqlite') {
      const sqlite = connection as SqliteConnection;
      sqlite.exec(`drop table if exists ${TABLE}; create table ${TABLE} (id integer primary key, recipient text not null, variables text not null)`);
      const started = performance.now();
      const insert = sqlite.prepare(`insert into ${TABLE} (id, recipient, variables) values (?, ?, ?)`);
      sqlite.transaction(() => {
        recipients.forEach((r, i) => insert.run(i + 1, r.to, JSON.stringify(r.variables)));
      })();
      const seconds = (performance.now() - started) / 1000;
      sqlite.exec(`drop table ${TABLE}`);
      return seconds;
    }
    const pg = connection as PgConnection;
    await pg.query(`drop table if exists ${TABLE}; create table ${TABLE} (id bigint primary key, recipient text not null, variables text not null)`);
    const started = performance.now();
    await pg.query('begin');
    const BATCH = 5_000;
    async function* lines(): AsyncGenerator<string> {
      for (let i = 0; i < recipients.length; i += BATCH) {
        let chunk = '';
        for (let j = i; j < Math.min(i + BATCH, recipients.length); j++) {
          const r = recipients[j] as BareRecipient;
          chunk += `${j + 1}\t${copyText(r.to)}\t${copyText(JSON.stringify(r.variables))}\n`;
        }
        yield chunk;
      }
    }
    await pipeline(Readable.from(lines()), pg.query(copyFrom(`copy ${TABLE} (id, recipient, variables) from stdin`)));
    await pg.query('commit');
    const seconds = (performance.now() - started) / 1000;
    await pg.query(`drop table ${TABLE}`);
    return seconds;
  } finally {
    await pool.releaseConnection(connection);
  }
}
