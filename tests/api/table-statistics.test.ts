import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_BITMAP_SCANS_SQL, withoutBitmapScans } from '../../server/src/db/bitmapScans';
import { TABLE_STATISTICS_LOCK, TableStatistics } from '../../server/src/db/tableStatistics';
import { PG_NUMBERS_BATCH_SQL } from '../../server/src/reports/recipientNumbers';
import { buildTemplate, buildUser } from '../../server/test/factories';
import { pollUntil } from '../../server/test/polling';
import { postgresUnavailable, startTestServer, testDatabaseKind, type TestServer } from '../../server/test/server';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Alias?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

function planNodes(node: PlanNode | undefined): PlanNode[] {
  return node ? [node, ...(node.Plans ?? []).flatMap(planNodes)] : [];
}

const onPostgres = testDatabaseKind() === 'postgres' && !postgresUnavailable;
if (!onPostgres) console.warn('table-statistics: PostgreSQL only (planner statistics and GIN indexes); skipped on SQLite');

describe.skipIf(!onPostgres)('PostgreSQL planner statistics and the trigram index', () => {
  let server: TestServer;
  let autovacuum: string;

  beforeAll(async () => {
    server = await startTestServer();
    const { rows } = (await server.db.raw("select current_setting('autovacuum') as value")) as { rows: { value: string }[] };
    autovacuum = rows[0]?.value ?? 'on';
  });

  afterAll(async () => {
    await server?.close();
  });

  /** What PostgreSQL knows of a table's size: -1 until it is first analysed. */
  async function reltuples(table: string): Promise<number> {
    const { rows } = (await server.db.raw('select reltuples from pg_class where oid = ?::regclass', [table])) as { rows: { reltuples: number }[] };
    return Number(rows[0]?.reltuples);
  }

  /** Rows changed since the table's last analysis, as PostgreSQL has counted them so far. */
  async function changedSinceAnalysis(table: string): Promise<number> {
    const { rows } = (await server.db.raw('select pg_stat_get_mod_since_analyze(?::regclass) as n', [table])) as { rows: { n: string }[] };
    return Number(rows[0]?.n);
  }

  async function sendTo(count: number, first: number): Promise<void> {
    const user = await buildUser(server, { creditRupees: 1_000 });
    const template = await buildTemplate(server, user);
    const sender = await server.services.senderNumbers.ensureSandbox(user.id);
    const recipients = Array.from({ length: count }, (_, i) => ({ to: `91${first + i}`, variables: { '1': 'Asha', '2': String(i) } }));
    await server.services.campaignAcceptance.accept({ user, template, senderNumberId: sender.id, name: 'Statistics', source: 'bulk', recipients, invalidCount: 0, inSendDuplicates: 0 });
  }

  it('gives messages their first statistics once autovacuum would have, where autovacuum is off', async (context) => {
    if (autovacuum !== 'off') context.skip('autovacuum is on here: PostgreSQL analyses the tables itself');
    expect(await reltuples('messages')).toBe(-1);
    await sendTo(200, 7_500_000_000);
    // The server's own worker, within its check interval: nothing in the test analyses the table.
    const known = await pollUntil(() => reltuples('messages'), (value) => value >= 0, { what: 'messages analysed', timeoutMs: 30_000 });
    expect(known).toBeGreaterThanOrEqual(200);
  });

  it('analyses a table again no sooner than a minute later, and never while another instance is analysing', async (context) => {
    if (autovacuum !== 'off') context.skip('autovacuum is on here: PostgreSQL analyses the tables itself');
    await server.services.tableStatistics?.stop();
    try {
      // The worker reads the minute's rule at a moment the test sets: a loaded machine may take
      // longer than a minute over the steps below.
      let moment = new Date();
      const worker = new TableStatistics({ db: server.db, log: server.logger, clock: () => moment });
      await worker.analyzeDue();
      moment = new Date();
      const before = await reltuples('messages');
      expect(before).toBeGreaterThanOrEqual(0);
      // Past autovacuum's threshold (50 + a tenth of the table), but analysed under a minute ago
      // and grown by fewer rows than it held then.
      const pastThreshold = Math.ceil(50 + 0.1 * before) + 10;
      expect(pastThreshold).toBeLessThan(before);
      await sendTo(pastThreshold, 7_600_000_000);
      await pollUntil(() => changedSinceAnalysis('messages'), (n) => n >= pastThreshold, { what: "messages' changes counted" });
      expect(await worker.analyzeDue()).not.toContain('messages');
      // A table never analysed with rows in it is due at once; while another instance holds the
      // lock this one analyses nothing.
      await server.db.raw('create table statistics_probe (n integer)');
      try {
        await server.db.raw('insert into statistics_probe select generate_series(1, 100)');
        // The inserting connection reports its counts when it goes idle, within seconds.
        await pollUntil(() => changedSinceAnalysis('statistics_probe'), (n) => n >= 100, { what: "statistics_probe's changes counted" });
        await server.db.transaction(async (trx) => {
          await trx.raw('select pg_advisory_xact_lock(?, hashtext(current_schema()))', [TABLE_STATISTICS_LOCK]);
          expect(await worker.analyzeDue()).toEqual([]);
        });
        expect(await reltuples('statistics_probe')).toBe(-1);
        expect(await pollUntil(() => worker.analyzeDue(), (names) => names.includes('statistics_probe'), { what: 'statistics_probe analysed' })).toContain('statistics_probe');
        expect(await reltuples('statistics_probe')).toBe(100);
      } finally {
        await server.db.raw('drop table statistics_probe');
      }
      expect(await reltuples('messages')).toBe(before);
      // A minute on, the same changes make it due.
      moment = new Date(moment.getTime() + 61_000);
      expect(await worker.analyzeDue()).toContain('messages');
      expect(await reltuples('messages')).toBe(before + pastThreshold);
    } finally {
      server.services.tableStatistics?.start();
    }
  });

  it('analyses a table again at once, within the minute, once it holds twice the rows it held at its last analysis', async (context) => {
    if (autovacuum !== 'off') context.skip('autovacuum is on here: PostgreSQL analyses the tables itself');
    await server.services.tableStatistics?.stop();
    try {
      const worker = new TableStatistics({ db: server.db, log: server.logger });
      await server.db.raw('analyze campaigns');
      const before = await reltuples('campaigns');
      // A table that grows tenfold within the minute after its analysis (a new deployment's first
      // busy minutes) kept the plans made on its old size, its foreign keys' checks among them:
      // each message's check of its campaign read the whole campaigns table
      // (docs/decisions/2026-12-05-plans-kept-for-a-young-table.md).
      const grown = Math.max(60, Math.ceil(before) + 1);
      const user = await buildUser(server, { creditRupees: 1_000 });
      const template = await buildTemplate(server, user);
      const sender = await server.services.senderNumbers.ensureSandbox(user.id);
      for (let i = 0; i < grown; i++) {
        const recipients = [{ to: `91${7_800_000_000 + i}`, variables: { '1': 'Asha', '2': String(i) } }];
        await server.services.campaignAcceptance.accept({ user, template, senderNumberId: sender.id, name: 'Growing', source: 'api', recipients, invalidCount: 0, inSendDuplicates: 0 });
      }
      await pollUntil(() => changedSinceAnalysis('campaigns'), (n) => n >= grown, { what: "campaigns' changes counted" });
      expect(await worker.analyzeDue()).toContain('campaigns');
      expect(await reltuples('campaigns')).toBeGreaterThanOrEqual(before + grown);
    } finally {
      server.services.tableStatistics?.start();
    }
  });

  it("reads the numbers already known by the btree in the numbers worker's batch, never by the trigram index, once the table has statistics", async () => {
    await server.services.recipientNumbers.stop();
    try {
      // A user with thousands of known numbers, and a statement's worth of new messages pending.
      const user = await buildUser(server, { creditRupees: 10 });
      await server.db.raw('insert into recipient_numbers (user_id, recipient) select ?, (919000000000 + n)::text from generate_series(1, 5000) as n', [user.id]);
      await sendTo(5, 7_700_000_000);
      await server.db.raw('analyze recipient_numbers');
      const explain = async (db: Parameters<typeof withoutBitmapScans>[0]) => {
        const { rows } = (await db.raw(`explain (format json) ${PG_NUMBERS_BATCH_SQL}`, [1_000, 64, 1_000, 4])) as { rows: { 'QUERY PLAN': { Plan: PlanNode }[] }[] };
        return planNodes(rows[0]?.['QUERY PLAN'][0]?.Plan);
      };
      const nodes = await withoutBitmapScans(server.db, (trx) => explain(trx));
      const known = nodes.filter((node) => node.Alias === 'known');
      expect(known.length).toBeGreaterThan(0);
      // Without the setting this statement read the trigram index here (a bitmap scan of it); with
      // it, the btree or, where the planner expects many numbers, a hash join over the table.
      for (const node of known) expect(node['Node Type']).not.toBe('Bitmap Heap Scan');
      expect(nodes.map((node) => node['Index Name'])).not.toContain('recipient_numbers_trigram_index');
      // The setting lasts for its transaction only: the search by part of a number still has the trigram index.
      const { rows } = (await server.db.raw("select current_setting('enable_bitmapscan') as value")) as { rows: { value: string }[] };
      expect(rows[0]?.value).toBe('on');
      expect(NO_BITMAP_SCANS_SQL).toMatch(/^set local /);
    } finally {
      server.services.recipientNumbers.start();
    }
  });
});
