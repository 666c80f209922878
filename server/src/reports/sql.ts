/**
 * The reports' SQL: filters in database terms, the index each filter reads, and direct driver
 * access. Reports go to the driver rather than through knex because an export reads a million rows
 * (knex would build an object and rename its keys for each) and because SQLite needs a cursor of
 * its own (see `openSqliteReader`).
 */
import Database from 'better-sqlite3';
import type { Knex } from 'knex';
import { forDatabase } from '../db/dialect';
import type { TReportStatus } from '@shared/schemas/reports';
import { REPORT_STATUS_EXPRESSION } from './status';

export type Dialect = 'sqlite' | 'pg';

/** A reports filter in database terms: created_at bounds in UTC, the recipient as stored digits. */
export interface ReportFilter {
  userId: number;
  /** Inclusive lower bound on messages.created_at (ISO, UTC). */
  createdFrom: string | null;
  /** Exclusive upper bound on messages.created_at (ISO, UTC). */
  createdBefore: string | null;
  /** Digits the stored recipient contains anywhere ("98765" finds 919876543210). */
  recipientContains: string | null;
  /**
   * The stored numbers `recipientContains` matched, when their rows are at most EXACT_COUNT_MAX
   * (found once by plan.ts): the request's count and page then seek them in the recipient index
   * instead of testing every number of the user again, which has no range to seek.
   */
  recipientNumbers?: readonly string[] | null;
  template: string | null;
  /** The member who sent the campaigns (`campaigns.actor_user_id`); null for everyone's. */
  sentBy?: number | null;
  /**
   * The campaigns of the template and sender filters, when looked up (plan.ts); otherwise the
   * filter finds them itself.
   */
  templateCampaignIds?: readonly number[] | null;
  status: TReportStatus | null;
}

/**
 * Which index a query reads. `ordered`: the list index (or the status index when filtering by
 * status), already in page order, so a page stops after `limit` matches. `recipient` and
 * `campaign`: the rows of a rare recipient filter or template gathered and sorted, which is
 * cheaper than walking the ordered index past everything else: a template's through the campaign
 * index, a recipient's through the recipient index, seeking the numbers the plan found.
 */
export type Access = 'ordered' | 'recipient' | 'campaign';

/** A position in the list order (created_at desc, id desc). `at` is created_at as the database writes it as text. */
export interface Cursor {
  at: string;
  id: number;
}

export interface Sql {
  sql: string;
  params: unknown[];
}

/** The indexed expression with its column qualified, so that it can sit beside a join to campaigns. */
export const REPORT_STATUS_SQL = REPORT_STATUS_EXPRESSION.replace(/\bstatus\b/g, 'm.status');

/** `where` conditions on `messages m` for a filter, read through `access`. */
export function filterSql(filter: ReportFilter, access: Access, dialect: Dialect): Sql {
  const where = ['m.user_id = ?'];
  const params: unknown[] = [filter.userId];
  if (filter.createdFrom) {
    where.push('m.created_at >= ?');
    params.push(filter.createdFrom);
  }
  if (filter.createdBefore) {
    where.push('m.created_at < ?');
    params.push(filter.createdBefore);
  }
  if (filter.status) {
    where.push(`${REPORT_STATUS_SQL} = ?`);
    params.push(filter.status);
  }
  if (filter.recipientNumbers) {
    const column = dialect === 'sqlite' && access !== 'recipient' ? '+m.recipient' : 'm.recipient';
    where.push(dialect === 'pg' ? `${column} = any(cast(? as text[]))` : `${column} in (select value from json_each(?))`);
    params.push(dialect === 'pg' ? [...filter.recipientNumbers] : JSON.stringify(filter.recipientNumbers));
  } else if (filter.recipientContains) {
    // Any part of the number: no range to seek, so the recipient index is read as a covering list
    // of the user's numbers (user_id = ?, each entry tested, no table access). The test each
    // database runs fastest: instr on SQLite, LIKE on PostgreSQL (each ahead of the other on a
    // million numbers, docs/decisions/2026-12-07-figures-out-of-code-comments.md). The
    // filter is digits, so the pattern has no wildcards but its own (escaped all the same).
    // SQLite takes that index whenever the column is visible; a unary + hides it when the digits
    // are common enough that walking the ordered index is the cheaper way.
    const column = dialect === 'sqlite' && access !== 'recipient' ? '+m.recipient' : 'm.recipient';
    where.push(dialect === 'pg' ? `${column} like ?` : `instr(${column}, ?) > 0`);
    params.push(dialect === 'pg' ? containsPattern(filter.recipientContains) : filter.recipientContains);
  }
  if (filter.template || filter.sentBy) {
    const column = dialect === 'sqlite' && access !== 'campaign' ? '+m.campaign_id' : 'm.campaign_id';
    const ids = filter.templateCampaignIds;
    if (!ids) {
      const campaigns = campaignConditions(filter.template, filter.sentBy ?? null, 'tc.');
      where.push(`${column} in (select tc.id from campaigns tc where tc.user_id = ?${campaigns.sql})`);
      params.push(filter.userId, ...campaigns.params);
    } else if (ids.length === 0) {
      where.push('1 = 0');
    } else if (dialect === 'pg') {
      // A list of values lets PostgreSQL weigh the campaigns by its statistics, which it cannot
      // do for a subquery (it then walks the whole list index for a rare, old template).
      where.push(`${column} = any(cast(? as integer[]))`);
      params.push([...ids]);
    } else {
      where.push(`${column} in (${ids.map(() => '?').join(', ')})`);
      params.push(...ids);
    }
  }
  return { sql: where.join(' and '), params };
}

/** The campaign conditions of the template and sender filters, each as ` and ...` (none when unset). */
export function campaignConditions(template: string | null, sentBy: number | null, qualifier = ''): Sql {
  let sql = '';
  const params: unknown[] = [];
  if (template !== null) {
    sql += ` and ${qualifier}template_name = ?`;
    params.push(template);
  }
  if (sentBy !== null) {
    sql += ` and ${qualifier}actor_user_id = ?`;
    params.push(sentBy);
  }
  return { sql, params };
}

/** A LIKE pattern for numbers holding these digits anywhere (the filter admits digits only; escaped all the same). */
export function containsPattern(digits: string): string {
  return `%${digits.replace(/[\\%_]/g, '\\$&')}%`;
}

/** `messages m`, pinned to the chosen index on SQLite (whose planner has no statistics to go by). */
export function messagesFrom(access: Access, dialect: Dialect): string {
  if (dialect === 'pg' || access === 'ordered') return 'messages m';
  return access === 'recipient' ? 'messages m indexed by messages_user_recipient_index' : 'messages m indexed by messages_campaign_status_index';
}

/**
 * created_at as text that reads back to the same instant and sorts as the instant does: SQLite
 * stores ISO strings already; PostgreSQL keeps microseconds, written out in UTC at fixed width.
 */
export function cursorColumn(dialect: Dialect, column = 'm.created_at'): string {
  return dialect === 'pg' ? `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')` : column;
}

/** Placeholders for a cursor in a row comparison. */
export function cursorParams(dialect: Dialect): string {
  return dialect === 'pg' ? '(cast(? as timestamptz), cast(? as bigint))' : '(?, ?)';
}

interface SqliteStatement {
  all(...params: unknown[]): unknown[];
  iterate(...params: unknown[]): IterableIterator<unknown>;
  raw(toggle?: boolean): SqliteStatement;
}
interface SqliteConnection {
  prepare(sql: string): SqliteStatement;
}
interface PgConnection {
  query(config: { text: string; values: unknown[]; rowMode?: 'array' }): Promise<{ rows: unknown[] }>;
}
interface PooledClient {
  acquireConnection(): Promise<unknown>;
  releaseConnection(connection: unknown): Promise<void>;
}

/** `?` placeholders as PostgreSQL's `$1, $2...` (the reports' SQL has no `?` of its own). */
export function numberedPlaceholders(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

/** Runs the reports' statements on a pooled connection, released as soon as each is done. */
export class ReportDb {
  readonly dialect: Dialect;

  constructor(private readonly db: Knex) {
    this.dialect = forDatabase<Dialect>(db, { postgresql: 'pg', sqlite: 'sqlite' });
  }

  private get pool(): PooledClient {
    return this.db.client as unknown as PooledClient;
  }

  async all<T>(sql: string, params: readonly unknown[]): Promise<T[]> {
    return this.run<T>(sql, params, false);
  }

  /** Rows as arrays of column values, in select order (no object per row). */
  async arrays<T extends unknown[]>(sql: string, params: readonly unknown[]): Promise<T[]> {
    return this.run<T>(sql, params, true);
  }

  private async run<T>(sql: string, params: readonly unknown[], asArrays: boolean): Promise<T[]> {
    const connection = await this.pool.acquireConnection();
    try {
      if (this.dialect === 'sqlite') {
        const statement = (connection as SqliteConnection).prepare(sql);
        return (asArrays ? statement.raw(true) : statement).all(...params) as T[];
      }
      const result = await (connection as PgConnection).query({ text: numberedPlaceholders(sql), values: [...params], ...(asArrays ? { rowMode: 'array' as const } : {}) });
      return result.rows as T[];
    } finally {
      await this.pool.releaseConnection(connection);
    }
  }

  /**
   * A read-only connection of its own for a long read on SQLite. The pool has one connection,
   * and an open better-sqlite3 cursor keeps its connection busy: an export over the pool's
   * connection would stall every other request and the dispatcher until it ended. In WAL mode a
   * second connection reads a consistent snapshot while the first goes on writing.
   */
  openSqliteReader(): { iterate<T extends unknown[]>(sql: string, params: readonly unknown[]): IterableIterator<T>; close(): void } {
    const { filename } = this.db.client.config.connection as { filename: string };
    const reader = new Database(filename, { readonly: true, fileMustExist: true });
    reader.pragma('busy_timeout = 5000');
    return {
      iterate: <T extends unknown[]>(sql: string, params: readonly unknown[]) => reader.prepare(sql).raw(true).iterate(...params) as IterableIterator<T>,
      close: () => reader.close(),
    };
  }
}
