/**
 * The contact book's bulk writes, set-based on each database: an import of a million contacts is
 * a few thousand statements, not a few million. The rules (which entries are valid, which contacts
 * are created, updated or skipped, which columns change) stay in the service; a store only moves
 * rows. Statements go to the transaction's own connection, past knex's query builder, whose
 * compiling of thousands of bindings per statement cost more than the database's work.
 */
import type { Knex } from 'knex';

/** A value of a contact column as bound. */
export type ContactValue = string | number | null;

/**
 * Contacts of one owner by number: `columns` (snake_case, `phone` first) and a row of values each.
 * A new number is inserted with these columns (the others null); an existing one takes the
 * columns after `phone` but those of `createOnly` (and a new `updated_at`), or is left as it is
 * where `skipExisting`.
 */
export interface ContactUpsert {
  ownerId: number;
  nowIso: string;
  columns: readonly string[];
  rows: readonly ContactValue[][];
  skipExisting: boolean;
  /** Columns written only on a contact this creates (the tag list, which an existing contact merges). */
  createOnly: ReadonlySet<string>;
}

/** What became of a number: its contact's id (absent where it was skipped) and whether it was created. */
export interface UpsertedContact {
  id?: number;
  created: boolean;
}

export interface ContactBulkStore {
  /** Entries a transaction handles per round of writes. */
  readonly chunk: number;
  /** The ids of the owner's contacts among these numbers, by number. */
  existingIds(trx: Knex.Transaction, ownerId: number, phones: readonly string[]): Promise<Map<string, number>>;
  /** Creates or updates the rows (see `ContactUpsert`); answers each number's fate. */
  upsert(trx: Knex.Transaction, upsert: ContactUpsert): Promise<Map<string, UpsertedContact>>;
  deleteTags(trx: Knex.Transaction, contactIds: readonly number[]): Promise<void>;
  /**
   * Adds tags, those a contact already has left as they are. `created`: the contacts were created
   * in this transaction and have no tags yet, so no conflict is looked for.
   */
  addTags(trx: Knex.Transaction, ownerId: number, tags: readonly { contactId: number; tag: string }[], created: boolean): Promise<void>;
  /**
   * Runs a query once and hands its rows on `pageSize` at a time, in its order, each row an array
   * of the select's columns in their order: a cursor on PostgreSQL, the statement stepped through
   * on SQLite. Paging by key instead would evaluate the query's sets (a tag's contacts) again for
   * every page; arrays rather than objects because a send to a million makes a million of them.
   */
  readPages(trx: Knex.Transaction, sql: string, bindings: readonly (string | number)[], pageSize: number, onPage: (rows: unknown[][]) => void): Promise<void>;
}

/** The transaction's connection, as the driver gives it. */
async function connectionOf<T>(trx: Knex.Transaction): Promise<T> {
  return (await (trx.client as unknown as { acquireConnection(): Promise<unknown> }).acquireConnection()) as T;
}

const placeholders = (count: number) => new Array<string>(count).fill('?').join(', ');

// SQLite.

interface SqliteStatement {
  run(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  iterate(...params: unknown[]): IterableIterator<unknown>;
  raw(toggle: boolean): SqliteStatement;
}
interface SqliteConnection {
  prepare(sql: string): SqliteStatement;
}

/** Prepared statements by connection and text: a chunk's statement is compiled once per import, not per chunk. */
const sqliteStatements = new WeakMap<SqliteConnection, Map<string, SqliteStatement>>();

function prepared(connection: SqliteConnection, sql: string): SqliteStatement {
  let cache = sqliteStatements.get(connection);
  if (!cache) {
    cache = new Map();
    sqliteStatements.set(connection, cache);
  }
  let statement = cache.get(sql);
  if (!statement) {
    // A bounded cache: an import has a handful of shapes, and a statement is cheap to compile again.
    if (cache.size >= 64) cache.clear();
    statement = connection.prepare(sql);
    cache.set(sql, statement);
  }
  return statement;
}

/**
 * SQLite: the chunk's existing numbers read by one statement, its new contacts written by one
 * multi-row insert (500 rows stay under the 32,766 bound variables for the widest row), and a
 * prepared single-row update per existing contact, which costs SQLite a few microseconds on its
 * one connection.
 */
export const SQLITE_CONTACT_BULK: ContactBulkStore = {
  chunk: 500,

  async existingIds(trx, ownerId, phones) {
    const connection = await connectionOf<SqliteConnection>(trx);
    const rows = prepared(connection, `select id, phone from contacts where user_id = ? and phone in (${placeholders(phones.length)})`).all(ownerId, ...phones) as {
      id: number | bigint;
      phone: string;
    }[];
    return new Map(rows.map((row) => [row.phone, Number(row.id)]));
  },

  async upsert(trx, { ownerId, nowIso, columns, rows, skipExisting, createOnly }) {
    const answer = new Map<string, UpsertedContact>();
    if (rows.length === 0) return answer;
    const connection = await connectionOf<SqliteConnection>(trx);
    const existing = await SQLITE_CONTACT_BULK.existingIds(
      trx,
      ownerId,
      rows.map((row) => row[0] as string),
    );
    const fresh = rows.filter((row) => !existing.has(row[0] as string));
    if (fresh.length > 0) {
      const row = `(?, ?, ?, ${placeholders(columns.length)})`;
      const sql = `insert into contacts (user_id, created_at, updated_at, ${columns.join(', ')}) values ${new Array<string>(fresh.length).fill(row).join(', ')} returning id, phone`;
      const params: unknown[] = [];
      for (const values of fresh) params.push(ownerId, nowIso, nowIso, ...values);
      const inserted = prepared(connection, sql).all(...params) as { id: number | bigint; phone: string }[];
      for (const r of inserted) answer.set(r.phone, { id: Number(r.id), created: true });
    }
    if (existing.size === 0) return answer;
    const changed = columns.flatMap((column, i) => (i > 0 && !createOnly.has(column) ? [i] : []));
    const update = skipExisting ? null : prepared(connection, `update contacts set ${[...changed.map((i) => columns[i]!), 'updated_at'].map((column) => `${column} = ?`).join(', ')} where id = ?`);
    for (const values of rows) {
      const id = existing.get(values[0] as string);
      if (id === undefined) continue;
      if (!update) {
        answer.set(values[0] as string, { created: false });
        continue;
      }
      update.run(...changed.map((i) => values[i]), nowIso, id);
      answer.set(values[0] as string, { id, created: false });
    }
    return answer;
  },

  async readPages(trx, sql, bindings, pageSize, onPage) {
    const connection = await connectionOf<SqliteConnection>(trx);
    let page: unknown[][] = [];
    for (const row of connection.prepare(sql).raw(true).iterate(...bindings)) {
      page.push(row as unknown[]);
      if (page.length === pageSize) {
        onPage(page);
        page = [];
      }
    }
    if (page.length > 0) onPage(page);
  },

  async deleteTags(trx, contactIds) {
    const connection = await connectionOf<SqliteConnection>(trx);
    for (let start = 0; start < contactIds.length; start += 500) {
      const ids = contactIds.slice(start, start + 500);
      prepared(connection, `delete from contact_tags where contact_id in (${placeholders(ids.length)})`).run(...ids);
    }
  },

  async addTags(trx, ownerId, tags, created) {
    const connection = await connectionOf<SqliteConnection>(trx);
    const onConflict = created ? '' : ' on conflict (contact_id, tag) do nothing';
    for (let start = 0; start < tags.length; start += 500) {
      const chunk = tags.slice(start, start + 500);
      const params: unknown[] = [];
      for (const { contactId, tag } of chunk) params.push(contactId, ownerId, tag);
      prepared(connection, `insert into contact_tags (contact_id, user_id, tag) values ${new Array<string>(chunk.length).fill('(?, ?, ?)').join(', ')}${onConflict}`).run(
        ...params,
      );
    }
  },
};

// PostgreSQL.

interface PgConnection {
  query(text: string, values: unknown[]): Promise<{ rows: unknown[] }>;
  query(config: { text: string; values?: unknown[]; rowMode: 'array' }): Promise<{ rows: unknown[][] }>;
}

/** The cast a contact column's values take from JSON's text. */
function pgCast(column: string): string {
  if (column.startsWith('number_')) return '::float8';
  if (column === 'opt_in_at') return '::timestamptz';
  return '';
}

/**
 * Column `i` of the rows as one JSON array: one bound value per column, whatever the number of
 * rows, and written by `JSON.stringify` rather than by the driver's array encoder, which escaped
 * each of an import's ten million values in JavaScript. The texts are well formed already (the
 * service's `wellFormed`): PostgreSQL refuses the escape of a lone surrogate.
 */
function columnJson(rows: readonly ContactValue[][], i: number): string {
  return JSON.stringify(rows.map((row) => row[i] ?? null));
}

/**
 * PostgreSQL: one `INSERT ... ON CONFLICT` per chunk of 10,000 entries (a whole bulk call), each
 * column bound as one JSON array and read back as rows, so a statement has a fixed handful of parameters
 * whatever its size, and no number is looked up before it is written. Where numbers are looked up
 * (`existingIds`), it is one at a time through the `(user_id, phone)` index (a lateral join):
 * asked for ten thousand at once, a table the planner has no statistics for yet (a fresh import)
 * was read whole.
 */
export const POSTGRES_CONTACT_BULK: ContactBulkStore = {
  chunk: 10_000,

  async existingIds(trx, ownerId, phones) {
    const connection = await connectionOf<PgConnection>(trx);
    const { rows } = await connection.query(
      'select c.id, c.phone from unnest($2::text[]) as k(phone) cross join lateral (select id, phone from contacts where user_id = $1 and phone = k.phone) as c',
      [ownerId, phones],
    );
    return new Map((rows as { id: string | number; phone: string }[]).map((row) => [row.phone, Number(row.id)]));
  },

  async upsert(trx, { ownerId, nowIso, columns, rows, skipExisting, createOnly }) {
    const answer = new Map<string, UpsertedContact>();
    if (rows.length === 0) return answer;
    const connection = await connectionOf<PgConnection>(trx);
    const sources = columns.map((_, i) => `json_array_elements_text($${i + 3}::json)`).join(', ');
    // `xmax` is 0 on a row version this statement inserted, and set where ON CONFLICT updated it.
    const onConflict = skipExisting
      ? 'do nothing returning id, phone, true as created'
      : `do update set ${[...columns.slice(1).filter((column) => !createOnly.has(column)), 'updated_at'].map((column) => `${column} = excluded.${column}`).join(', ')} returning id, phone, (xmax = 0) as created`;
    const sql = `insert into contacts (user_id, created_at, updated_at, ${columns.join(', ')})
      select $1, $2, $2, ${columns.map((column) => `v.${column}${pgCast(column)}`).join(', ')} from rows from (${sources}) as v(${columns.join(', ')})
      on conflict (user_id, phone) ${onConflict}`;
    const { rows: written } = await connection.query(sql, [ownerId, nowIso, ...columns.map((_, i) => columnJson(rows, i))]);
    for (const row of written as { id: string | number; phone: string; created: boolean }[]) answer.set(row.phone, { id: Number(row.id), created: row.created });
    // Skipped: the numbers DO NOTHING answered no row for.
    for (const values of rows) if (!answer.has(values[0] as string)) answer.set(values[0] as string, { created: false });
    return answer;
  },

  async readPages(trx, sql, bindings, pageSize, onPage) {
    await trx.raw(`declare contact_pages no scroll cursor for ${sql}`, [...bindings]);
    const connection = await connectionOf<PgConnection>(trx);
    for (;;) {
      const { rows } = await connection.query({ text: `fetch ${pageSize} from contact_pages`, rowMode: 'array' });
      if (rows.length === 0) break;
      onPage(rows);
    }
    await trx.raw('close contact_pages');
  },

  async deleteTags(trx, contactIds) {
    const connection = await connectionOf<PgConnection>(trx);
    await connection.query('delete from contact_tags where contact_id = any($1::bigint[])', [contactIds]);
  },

  async addTags(trx, ownerId, tags, created) {
    if (tags.length === 0) return;
    const connection = await connectionOf<PgConnection>(trx);
    // ON CONFLICT makes each row a speculative insertion: only where a tag may already be there.
    await connection.query(
      `insert into contact_tags (contact_id, user_id, tag) select t.id, $1, t.tag from unnest($2::bigint[], $3::text[]) as t(id, tag)${created ? '' : ' on conflict (contact_id, tag) do nothing'}`,
      [ownerId, tags.map((t) => t.contactId), tags.map((t) => t.tag)],
    );
  },
};
