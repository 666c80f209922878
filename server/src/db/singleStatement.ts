/**
 * Several writes as one PostgreSQL statement: each a data-modifying CTE of one `WITH`. A single
 * statement is atomic on its own, so it needs no `BEGIN` and no `COMMIT`: where a transaction of
 * five writes costs seven round trips, this costs one (the public send API's group commit, issue
 * 17). A failing part fails the whole statement, and nothing any part wrote is kept.
 *
 * Parts are SQL with knex's `?` placeholders and their bindings (`toSQL()` of a builder), so the
 * whole runs through `knex.raw`: the pool, the schema's search path and the query log as for any
 * other query.
 */
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';

export interface StatementPart {
  sql: string;
  bindings: readonly unknown[];
}

/**
 * A statement written with PostgreSQL's numbered placeholders (`$1`, as pg-boss writes its own) as
 * a part: each `$n` becomes `?` with its value in order of appearance. Refuses text it cannot
 * convert faithfully: a literal `?` (knex would take it for a placeholder) or a `$` that is not a
 * placeholder (dollar quoting).
 */
export function partFromNumbered(text: string, values: readonly unknown[]): StatementPart {
  if (text.includes('?')) throw new Error('a statement with a literal "?" cannot be embedded');
  const bindings: unknown[] = [];
  const sql = text.replace(/\$(\d*)/g, (match, digits: string) => {
    const index = Number(digits) - 1;
    if (digits === '' || index < 0 || index >= values.length) throw new Error(`"${match}" is not one of the statement's ${values.length} placeholders`);
    // node-postgres sends an undefined value as NULL; knex refuses it as a missing binding.
    const value = values[index];
    bindings.push(value === undefined ? null : value);
    return '?';
  });
  return { sql, bindings };
}

/** `with name as (part), ... <select>`: the parts in order, then the statement's answer. */
export function singleStatement(parts: readonly (readonly [name: string, part: StatementPart])[], select: string): StatementPart {
  const bindings: unknown[] = [];
  const ctes = parts.map(([name, part]) => {
    bindings.push(...part.bindings);
    return `${name} as (${part.sql})`;
  });
  return { sql: `with ${ctes.join(', ')} ${select}`, bindings };
}

/** Compiled insert statements, by knex instance, table, columns and the SQL of the values given as SQL. */
const compiledInserts = new WeakMap<Knex, Map<string, string>>();

function isRaw(value: unknown): value is Knex.Raw {
  return typeof value === 'object' && value !== null && (value as { isRawInstance?: unknown }).isRawInstance === true;
}

/**
 * An insert of one row as a part. knex compiles it once per table and set of columns and the text
 * is kept: compiling an insert costs more of the server's thread than PostgreSQL takes to run it
 * under the public API's load. A value may be SQL
 * (`db.raw` without bindings), which is then part of the text.
 */
export function insertPart(db: Knex, table: string, row: Record<string, unknown>): StatementPart {
  // knex writes an insert's columns in sorted order (QueryCompiler._prepInsert), and so its bindings.
  const columns = Object.keys(row).sort();
  const sqlValues = columns.filter((column) => isRaw(row[column])).map((column) => `${column}=${(row[column] as Knex.Raw).toSQL().sql}`);
  const key = `${table}|${columns.join(',')}|${sqlValues.join('|')}`;
  let byKey = compiledInserts.get(db);
  if (!byKey) compiledInserts.set(db, (byKey = new Map()));
  const bindings = columns.filter((column) => !isRaw(row[column])).map((column) => row[column]);
  let sql = byKey.get(key);
  if (sql === undefined) {
    const compiled = db(table).insert(row).toSQL();
    if (compiled.bindings.length !== bindings.length || compiled.bindings.some((value, i) => value !== bindings[i])) {
      throw new Error(`the insert into ${table} binds its values in another order than its sorted columns`);
    }
    sql = compiled.sql;
    if (byKey.size >= 100) byKey.clear();
    byKey.set(key, sql);
  }
  return { sql, bindings };
}

/**
 * Runs the statement. `prepared`: as a statement named after its text (`asPrepared`), which each
 * connection of the pool parses once and then only binds and runs.
 */
export async function runSingleStatement<Row>(db: Knex, statement: StatementPart, options: { prepared?: boolean } = {}): Promise<Row[]> {
  const query = db.raw(statement.sql, statement.bindings as Knex.RawBinding[]);
  const result = (await (options.prepared ? asPrepared(query) : query)) as { rows: Row[] };
  return result.rows;
}

/**
 * A query run as a prepared statement named after its compiled text: each pooled connection
 * parses it once and keeps it (node-postgres keeps each connection's statements by name, and a
 * name per text keeps texts apart). PostgreSQL still plans it for its values at each of its first
 * five runs, then keeps one generic plan where that is not dearer than the plans made for values.
 * That suits writes by key, and reads whose tables have statistics: without them (a table never
 * analysed) the generic plan of the public API's read took the user's report index for its
 * Duplicate Blocked probe (docs/decisions/2026-11-29-postgresql-prepared-write.md), which is why
 * `db/tableStatistics.ts` gives every table statistics where autovacuum would not.
 */
export function asPrepared(query: Knex.Raw): Knex.Raw {
  return query.options({ name: preparedName(query.toSQL().sql) });
}

/** A prepared statement's name: PostgreSQL keeps the first 63 bytes of a name. */
function preparedName(sql: string): string {
  return `sandesh_${createHash('sha256').update(sql).digest('hex').slice(0, 32)}`;
}
