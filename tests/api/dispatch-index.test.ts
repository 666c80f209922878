/**
 * The dispatch index holds open messages only on PostgreSQL: a message's result and its
 * delivery and read statuses add no entry to it, so it stays the size of the backlog. The sweeps
 * that read it (lapsed claims, unknown sends past their settle window) must still find their rows.
 * On PostgreSQL the dispatch jobs are pg-boss's: its fetch takes the next job from an index in
 * its own order (`ensureFetchOrderIndex`) instead of sorting every waiting job.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNFINISHED_STATUSES } from '../../server/src/db/rows/messages';
import PgBoss from 'pg-boss';
import { DISPATCH_QUEUE, FETCH_ORDER_INDEX, pgBossSchemaFor } from '../../server/src/sending/dispatchJobs';
import { recoverAbandoned } from '../../server/src/sending/queues';
import { buildCampaign, buildUser } from '../../server/test/factories';
import { postgresUnavailable, startTestServer, testDatabaseKind, type TestServer } from '../../server/test/server';

const onPostgres = testDatabaseKind() === 'postgres';
const SETTLE_SECONDS = 600;

describe.skipIf(postgresUnavailable)('the dispatch index and the sweeps that read it', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ DISPATCH_ENABLED: 'false' });
  });
  afterAll(async () => {
    await server?.close();
  });

  /** One message in each state, claimed ones under a lease that lapsed a minute ago. */
  async function messagesInEveryState(): Promise<Record<string, number>> {
    const user = await buildUser(server, { creditRupees: 100 });
    const statuses = ['queued', 'sending', 'sending', 'unknown', 'sent', 'delivered', 'read', 'failed', 'cancelled', 'duplicate', 'suppressed'] as const;
    const built = await buildCampaign(server, user, { status: 'running', messages: statuses.map((status) => ({ status })) });
    const ids = built.messages.map((message) => message.id);
    const [queued, handed, unhanded, unknown, sent] = ids as [number, number, number, number, number];
    const lapsed = new Date(Date.now() - 60_000).toISOString();
    await server.db('messages').where({ id: handed }).update({ claimToken: '0d0d0d0d0d0d0d0d', handedAt: lapsed, leaseUntil: lapsed });
    await server.db('messages').where({ id: unhanded }).update({ claimToken: '0e0e0e0e0e0e0e0e', handedAt: null, leaseUntil: lapsed });
    await server.db('messages').where({ id: unknown }).update({ claimToken: '0f0f0f0f0f0f0f0f', nextAttemptAt: lapsed });
    return { queued, handed, unhanded, unknown, sent };
  }

  it('finds lapsed claims and unknown sends past their window, and leaves finished messages alone', async () => {
    const ids = await messagesInEveryState();
    const before = (await server.db('messages').whereNotIn('status', ['queued', 'sending', 'unknown']).select('id', 'status', 'updatedAt')) as { id: number; status: string; updatedAt: unknown }[];

    const moved = await recoverAbandoned(server.db, server.services.engine.dispatchStore, SETTLE_SECONDS, false);

    const statusOf = async (id: number | undefined) => ((await server.db('messages').where({ id }).first('status')) as { status: string }).status;
    expect(await statusOf(ids.handed)).toBe('unknown');
    expect(await statusOf(ids.unhanded)).toBe('queued');
    expect(await statusOf(ids.unknown)).toBe('queued');
    expect(await statusOf(ids.queued)).toBe('queued');
    expect(moved.requeuedIds.sort((x, y) => x - y)).toEqual([ids.unhanded, ids.unknown].sort((x, y) => (x as number) - (y as number)));
    const after = (await server.db('messages').whereIn('id', before.map((row) => row.id)).select('id', 'status', 'updatedAt')) as { id: number; status: string; updatedAt: unknown }[];
    expect(after.sort((x, y) => x.id - y.id)).toEqual(before.sort((x, y) => x.id - y.id));
  });

  it.skipIf(!onPostgres)('covers the statuses of open messages and no other', async () => {
    // The index's own condition, as PostgreSQL keeps it, against the statuses the dispatcher calls
    // unfinished (the migration writes them out, so it stays as it ran). Counting the index's
    // entries after a VACUUM was tried, but a transaction of another test running meanwhile keeps
    // dead row versions (and their entries) alive, whichever schema it is in.
    const definition = (await server.db.raw(
      "select pg_get_expr(i.indpred, i.indrelid) as predicate from pg_index i join pg_class c on c.oid = i.indexrelid where c.relname = 'messages_dispatch_index' and c.relnamespace = current_schema()::regnamespace",
    )) as { rows: { predicate: string | null }[] };
    const predicate = definition.rows[0]?.predicate ?? '';
    const named = [...predicate.matchAll(/'([a-z_]+)'/g)].map((match) => match[1]);
    expect(named.sort()).toEqual([...UNFINISHED_STATUSES].sort());
  });

  it.skipIf(!onPostgres)("serves the sweeps' reads: each condition implies the index's", async () => {
    const nowIso = new Date().toISOString();
    const reads = [
      server.db('messages').where({ status: 'sending' }).whereNotNull('handedAt').where('leaseUntil', '<', nowIso).select('id'),
      server.db('messages').where({ status: 'sending' }).whereNull('handedAt').where('leaseUntil', '<', nowIso).select('id'),
      server.db('messages').where({ status: 'unknown' }).where('nextAttemptAt', '<=', nowIso).select('id', 'claimToken'),
    ];
    for (const read of reads) {
      const plan = await server.db.transaction(async (trx) => {
        // Where the planner may not scan the table, it shows which indexes the condition can use.
        await trx.raw('set local enable_seqscan = off');
        const { sql, bindings } = read.toSQL();
        const explained = (await trx.raw(`explain ${sql}`, bindings)) as { rows: { 'QUERY PLAN': string }[] };
        return explained.rows.map((row) => row['QUERY PLAN']).join('\n');
      });
      expect(plan).toContain('messages_dispatch_index');
    }
  });

  it.skipIf(!onPostgres)("takes pg-boss's next job in index order, without sorting the waiting jobs", async () => {
    const database = server.config.database;
    if (database.kind !== 'postgresql') throw new Error('PostgreSQL only');
    const schema = pgBossSchemaFor(database.schema);
    // pg-boss's own fetch, written out by pg-boss as its workers run it (batchSize 1), not run.
    const boss = new PgBoss({ connectionString: database.url, schema });
    let fetch: { text: string; values: unknown[] } | null = null;
    await boss.fetch(DISPATCH_QUEUE, {
      batchSize: 1,
      db: {
        executeSql: async (text, values) => {
          fetch = { text, values: values ?? [] };
          return { rows: [] };
        },
      },
    });
    if (!fetch) throw new Error('pg-boss wrote no fetch');
    const { text, values } = fetch as { text: string; values: unknown[] };
    // The waiting jobs of a large campaign (no dispatcher runs here): the plan before this index
    // read and sorted every one of them per fetch.
    const inserted = (await server.db.raw(`insert into ??.job (name, data) select ?, '{"messageIds":[]}'::jsonb from generate_series(1, 5000) returning id`, [schema, DISPATCH_QUEUE])) as { rows: { id: string }[] };
    try {
      await server.db.raw('analyze ??.job', [schema]);
      // pg-boss numbers its parameters and uses one twice: run it as written, on a pooled connection.
      const connection = (await server.db.client.acquireConnection()) as { query(text: string, values: unknown[]): Promise<{ rows: { 'QUERY PLAN': string }[] }> };
      let plan: string;
      try {
        await connection.query(`set search_path to ${database.schema ?? 'public'}`, []);
        plan = (await connection.query(`explain ${text}`, values)).rows.map((row) => row['QUERY PLAN']).join('\n');
      } finally {
        await server.db.client.releaseConnection(connection);
      }
      // Each queue's partition of the job table has its own copy of the index, named by PostgreSQL.
      const copies = (await server.db.raw(
        'select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent where p.relname = ? and p.relnamespace = ?::regnamespace',
        [FETCH_ORDER_INDEX, schema],
      )) as { rows: { name: string }[] };
      expect(copies.rows.length).toBeGreaterThan(0);
      expect(copies.rows.some((copy) => plan.includes(`Index Scan using ${copy.name} `))).toBe(true);
      expect(plan).not.toMatch(/Sort Key: [^\n]*priority/);
    } finally {
      await server.db.raw('delete from ??.job where id = any(?::uuid[])', [schema, inserted.rows.map((row) => row.id)]);
    }
  });
});
