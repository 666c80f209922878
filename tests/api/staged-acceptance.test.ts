import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@shared/messages';
import { buildTemplate, buildUser } from '../../server/test/factories';
import { pollUntil } from '../../server/test/polling';
import { postgresUnavailable, startTestServer, testDatabaseKind, type TestServer } from '../../server/test/server';
import { createLogger } from '../../server/src/logger';
import { CAMPAIGN_CHUNKS_LOCK_KEY } from '../../server/src/sending/acceptance/stagedRows';
import { Materialiser } from '../../server/src/sending/materialiser';
import type { Template, User } from '../../server/src/models';
import { planQuery } from '../../server/src/reports/plan';
import { ReportPositions } from '../../server/src/reports/positions';
import { ReportService } from '../../server/src/reports/service';
import { ReportDb } from '../../server/src/reports/sql';

/**
 * Large sends accepted as lean rows: `campaign_recipients` at acceptance, message rows
 * made by the materialiser right after. The threshold is lowered so that a few recipients take
 * that path; the materialiser is stopped where a test looks at the rows while they are staged.
 */
describe.skipIf(postgresUnavailable)('a large send accepted as staged recipients', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ STAGED_ACCEPTANCE_MIN_RECIPIENTS: '5', DISPATCH_ENABLED: 'false' });
  });
  afterAll(async () => {
    await server?.close();
  });

  const recipients = (numbers: readonly string[]) => numbers.map((to, i) => ({ to, variables: { '1': `Name ${i}`, '2': `C${i}` } }));
  const numbers = (base: number, count: number) => Array.from({ length: count }, (_, i) => `91${base + i}`);

  async function setUp(creditRupees = 100): Promise<{ user: User; template: Template; senderNumberId: number }> {
    const user = await buildUser(server, { creditRupees });
    const template = await buildTemplate(server, user);
    const sender = await server.services.senderNumbers.ensureSandbox(user.id);
    return { user, template, senderNumberId: sender.id };
  }

  async function accept(run: { user: User; template: Template; senderNumberId: number }, to: readonly string[], name = 'Big list') {
    return server.services.campaignAcceptance.accept({ ...run, name, source: 'bulk', recipients: recipients(to), invalidCount: 0, inSendDuplicates: 0 });
  }

  const staged = async (campaignId: number) => Number(((await server.db('campaign_recipients').where({ campaignId }).count({ n: '*' })) as { n: number | string }[])[0]?.n ?? 0);
  const messageRows = async (campaignId: number) =>
    (await server.db('messages').where({ campaignId }).orderBy('id').select('id', 'recipient', 'status', 'priceUnits', 'variables', 'errorCode', 'errorMessage', 'createdAt')) as {
      id: number;
      recipient: string;
      status: string;
      priceUnits: number;
      variables: string | Record<string, string>;
      errorCode: number | null;
      errorMessage: string | null;
      createdAt: string | Date;
    }[];

  /** Runs `test` with the server's materialiser stopped, and starts it again after. */
  async function withMaterialiserStopped(test: () => Promise<void>): Promise<void> {
    const { materialiser } = server.services.engine;
    await materialiser.stop();
    try {
      await test();
    } finally {
      materialiser.start();
    }
  }

  it('writes lean rows at acceptance and message rows after it, in the send order, with each fate, price and values', async () => {
    const run = await setUp();
    await withMaterialiserStopped(async () => {
      // One opted out, one Duplicate Blocked by an earlier (small, direct) send of the same message.
      await server.db('suppressions').insert({ userId: run.user.id, recipient: '919700000003', reason: 'STOP', createdAt: new Date().toISOString() });
      await server.services.campaignAcceptance.accept({ ...run, name: 'Earlier', source: 'quick', recipients: [{ to: '919700000005', variables: { '1': 'Name 5', '2': 'C5' } }], invalidCount: 0, inSendDuplicates: 0 });
      const before = await server.services.wallet.balance(run.user.id);
      const list = numbers(9_700_000_000, 8);
      const accepted = await accept(run, list);
      expect(accepted).toMatchObject({ accepted: 6, duplicates: 1, suppressed: 1, totalCostUnits: 6 * accepted.priceUnits });
      expect(await server.services.wallet.balance(run.user.id)).toBe(before - 6 * accepted.priceUnits);
      expect(await staged(accepted.campaignId)).toBe(8);
      expect(await messageRows(accepted.campaignId)).toEqual([]);
      const campaign = (await server.db('campaigns').where({ id: accepted.campaignId }).first('stagedRecipients', 'status', 'createdAt')) as { stagedRecipients: number; status: string; createdAt: string | Date };
      expect(campaign).toMatchObject({ stagedRecipients: 8, status: 'running' });

      // Counted by their fates while staged, and not completed by a completion check.
      const whileStaged = await server.services.campaigns.get(run.user, accepted.campaignId);
      expect(whileStaged.counts).toMatchObject({ queued: 6, duplicate: 1, suppressed: 1, sent: 0 });
      await server.services.engine.outcomes.completeCampaigns([accepted.campaignId]);
      expect(((await server.db('campaigns').where({ id: accepted.campaignId }).first('status')) as { status: string }).status).toBe('running');

      await server.services.engine.materialiser.drain();
      expect(await staged(accepted.campaignId)).toBe(0);
      const rows = await messageRows(accepted.campaignId);
      expect(rows.map((row) => row.recipient)).toEqual(list);
      expect(rows.map((row) => row.status)).toEqual(['queued', 'queued', 'queued', 'suppressed', 'queued', 'duplicate', 'queued', 'queued']);
      expect(rows[3]).toMatchObject({ priceUnits: 0, errorCode: 131050, errorMessage: messages.sending.optedOut });
      expect(rows[5]).toMatchObject({ priceUnits: 0, errorCode: null, errorMessage: messages.sending.duplicateBlocked });
      expect(rows[0]).toMatchObject({ priceUnits: accepted.priceUnits, errorCode: null, errorMessage: null });
      const values = rows[7]?.variables;
      expect(typeof values === 'string' ? JSON.parse(values) : values).toEqual({ '1': 'Name 7', '2': 'C7' });
      expect(new Date(rows[0]!.createdAt).toISOString()).toBe(new Date(campaign.createdAt).toISOString());
      const after = await server.services.campaigns.get(run.user, accepted.campaignId);
      expect(after.counts).toEqual(whileStaged.counts);
      expect(after.campaign.status).toBe('running');
    });
  });

  it('keeps values exactly through the lean rows: tabs, line breaks, backslashes, quotes and Indian scripts', async () => {
    const run = await setUp();
    const awkward = ['a\tb', 'line one\nline two\r\n', 'C:\\path\\to', '\\N', 'say "hi"', 'नमस्ते 🙏', ''];
    const list = numbers(9_705_000_000, awkward.length);
    const accepted = await server.services.campaignAcceptance.accept({
      ...run,
      name: 'Awkward values',
      source: 'custom',
      recipients: list.map((to, i) => ({ to, variables: { '1': awkward[i] as string, '2': `#${i}` } })),
      invalidCount: 0,
      inSendDuplicates: 0,
    });
    await server.services.engine.materialiser.drain();
    const rows = await messageRows(accepted.campaignId);
    expect(rows.map((row) => (typeof row.variables === 'string' ? JSON.parse(row.variables) : row.variables))).toEqual(awkward.map((value, i) => ({ '1': value, '2': `#${i}` })));
  });

  it('blocks a second send of the same messages while the first is still staged, by probe and by loaded keys', async () => {
    const run = await setUp(1_000);
    await withMaterialiserStopped(async () => {
      // 1,000 keys: past SQLite's lookup size, so its earlier campaigns' keys are loaded; 6 are probed.
      const list = numbers(9_710_000_000, 1_000);
      const first = await accept(run, list);
      expect(first.accepted).toBe(1_000);
      const small = await server.services.campaignAcceptance.accept({ ...run, name: 'Again', source: 'quick', recipients: recipients(list.slice(0, 6)), invalidCount: 0, inSendDuplicates: 0 });
      expect(small).toMatchObject({ accepted: 0, duplicates: 6, totalCostUnits: 0 });
      const large = await accept(run, list, 'Big list again');
      expect(large).toMatchObject({ accepted: 0, duplicates: 1_000, totalCostUnits: 0 });
      // The values are part of the message: other values are not duplicates.
      const changed = await server.services.campaignAcceptance.accept({ ...run, name: 'Other values', source: 'quick', recipients: [{ to: list[0]!, variables: { '1': 'Someone else', '2': 'C0' } }], invalidCount: 0, inSendDuplicates: 0 });
      expect(changed.accepted).toBe(1);
    });
  });

  it("finds the messages of every way they are written by the reports' search for part of a number", async () => {
    const run = await setUp();
    // A small send (on PostgreSQL one statement), one with nothing to debit (a transaction), a staged one (the materialiser).
    await server.services.campaignAcceptance.accept({ ...run, name: 'Small', source: 'quick', recipients: recipients(['919750000001']), invalidCount: 0, inSendDuplicates: 0 });
    await server.db('suppressions').insert({ userId: run.user.id, recipient: '919750000002', reason: 'STOP', createdAt: new Date().toISOString() });
    const optedOut = await server.services.campaignAcceptance.accept({ ...run, name: 'Opted out', source: 'quick', recipients: recipients(['919750000002']), invalidCount: 0, inSendDuplicates: 0 });
    expect(optedOut.accepted).toBe(0);
    const big = await accept(run, numbers(9_750_000_100, 6));
    await pollUntil(() => staged(big.campaignId), (left) => left === 0, { what: 'the staged rows materialised', timeoutMs: 30_000 });

    const rdb = new ReportDb(server.db);
    const reports = new ReportService({ db: server.db, log: server.logger });
    const found = async (digits: string) => {
      const plan = await planQuery(rdb, reports.filterFor(run.user.id, { recipientNumber: digits }));
      return (await new ReportPositions(rdb).total(plan)).total;
    };
    expect([await found('919750000001'), await found('50000002'), await found('975000010'), await found('0000105'), await found('97500')]).toEqual([1, 1, 6, 1, 8]);
    // Another user's numbers are not searched.
    const other = await setUp();
    expect((await new ReportPositions(rdb).total(await planQuery(rdb, reports.filterFor(other.user.id, { recipientNumber: '97500' })))).total).toBe(0);
  });

  it('cancels a campaign whose recipients are still staged: every one failed as cancelled and refunded', async () => {
    const run = await setUp();
    await withMaterialiserStopped(async () => {
      const before = await server.services.wallet.balance(run.user.id);
      const accepted = await accept(run, numbers(9_720_000_000, 7));
      expect(await server.services.wallet.balance(run.user.id)).toBe(before - accepted.totalCostUnits);
      const cancelled = await server.services.campaigns.cancel(run.user, accepted.campaignId);
      expect(cancelled.campaign.status).toBe('cancelled');
      expect(cancelled.counts).toMatchObject({ queued: 0, cancelled: 7 });
      expect(await staged(accepted.campaignId)).toBe(0);
      expect((await messageRows(accepted.campaignId)).length).toBe(7);
      expect(await server.services.wallet.balance(run.user.id)).toBe(before);
    });
  });

  it('moves a chunk at a time, each in order, and goes on from the first row left', async () => {
    const run = await setUp();
    await withMaterialiserStopped(async () => {
      const accepted = await accept(run, numbers(9_730_000_000, 8));
      const chunks: { rows: number; left: number }[] = [];
      const materialiser = new Materialiser({
        db: server.db,
        store: server.services.engine.stagedRows, jobs: server.services.engine.jobs,
        log: createLogger(server.config),
        chunkRows: 3,
        chunksAtOnce: 1,
        onMaterialised: async ({ rows, left }) => {
          chunks.push({ rows, left });
        },
      });
      expect(await materialiser.materialiseNext()).toMatchObject({ campaignId: accepted.campaignId, rows: 3, left: 5 });
      expect((await messageRows(accepted.campaignId)).map((row) => row.recipient)).toEqual(numbers(9_730_000_000, 3));
      await materialiser.drain();
      expect(chunks).toEqual([
        { rows: 3, left: 5 },
        { rows: 3, left: 2 },
        { rows: 2, left: 0 },
      ]);
      const rows = await messageRows(accepted.campaignId);
      expect(rows.map((row) => row.recipient)).toEqual(numbers(9_730_000_000, 8));
      // Ids follow the send's order across chunks: the dispatcher takes them in that order.
      expect(rows.map((row) => row.id)).toEqual([...rows.map((row) => row.id)].sort((a, b) => a - b));
      expect(await materialiser.materialiseNext()).toBeNull();
    });
  });

  /** A materialiser of three rows a chunk, as another instance's would be. */
  const chunkWriter = (chunksAtOnce = 2) =>
    new Materialiser({ db: server.db, store: server.services.engine.stagedRows, jobs: server.services.engine.jobs, log: createLogger(server.config), chunkRows: 3, chunksAtOnce, onMaterialised: async () => {} });

  /**
   * A chunk in flight elsewhere: a transaction holding the campaign's chunk lock shared and the
   * first `rows` staged rows, as `materialiseNext` holds them until it commits.
   */
  async function chunkInFlight(campaignId: number, rows: number): Promise<{ positions: number[]; end: () => Promise<void> }> {
    const trx = await server.db.transaction();
    await trx.raw(`select pg_advisory_xact_lock_shared(${CAMPAIGN_CHUNKS_LOCK_KEY})`, [campaignId]);
    const held = (await trx('campaign_recipients').where({ campaignId }).orderBy('position').limit(rows).forUpdate().select('position')) as { position: number }[];
    return { positions: held.map((row) => Number(row.position)), end: async () => void (await trx.rollback()) };
  }

  // PostgreSQL only: SQLite's one connection writes a chunk at a time.
  it.skipIf(testDatabaseKind() !== 'postgres')('writes chunks side by side past the rows another chunk holds, with ids in the send order whichever commits first', async () => {
    const run = await setUp();
    await withMaterialiserStopped(async () => {
      const list = numbers(9_735_000_000, 8);
      const accepted = await accept(run, list);
      const other = await chunkInFlight(accepted.campaignId, 3);
      expect(other.positions).toEqual([0, 1, 2]);
      const materialiser = chunkWriter();
      // The next three rows, committed before the first three.
      expect(await materialiser.materialiseNext()).toMatchObject({ campaignId: accepted.campaignId, rows: 3, left: 5 });
      expect((await messageRows(accepted.campaignId)).map((row) => row.recipient)).toEqual(list.slice(3, 6));
      await other.end();
      await materialiser.drain();
      const rows = await messageRows(accepted.campaignId);
      expect(rows.map((row) => row.recipient)).toEqual(list);
      expect(await staged(accepted.campaignId)).toBe(0);
      expect(((await server.db('campaigns').where({ id: accepted.campaignId }).first('stagedRecipients')) as { stagedRecipients: number }).stagedRecipients).toBe(0);
    });
  });

  // PostgreSQL only: SQLite's one connection writes a chunk at a time.
  it.skipIf(testDatabaseKind() !== 'postgres')('leaves the count alone when every row left is in another chunk in flight, and takes the next campaign', async () => {
    const run = await setUp();
    await withMaterialiserStopped(async () => {
      const accepted = await accept(run, numbers(9_736_000_000, 6));
      const other = await chunkInFlight(accepted.campaignId, 6);
      expect(await chunkWriter().materialiseNext()).toBeNull();
      expect(((await server.db('campaigns').where({ id: accepted.campaignId }).first('stagedRecipients')) as { stagedRecipients: number }).stagedRecipients).toBe(6);
      const next = await accept(run, numbers(9_736_100_000, 5), 'Next list');
      expect(await chunkWriter().materialiseNext()).toMatchObject({ campaignId: next.campaignId, rows: 3, left: 2 });
      await other.end();
      await chunkWriter().drain();
      expect((await messageRows(accepted.campaignId)).length).toBe(6);
      expect((await messageRows(next.campaignId)).length).toBe(5);
    });
  });

  // PostgreSQL only: SQLite's one connection writes a chunk at a time.
  it.skipIf(testDatabaseKind() !== 'postgres')('cancels after the chunk in flight, starting no new chunk meanwhile, and fails and refunds every row', async () => {
    const run = await setUp();
    await withMaterialiserStopped(async () => {
      const before = await server.services.wallet.balance(run.user.id);
      const accepted = await accept(run, numbers(9_737_000_000, 7));
      const other = await chunkInFlight(accepted.campaignId, 3);
      let answered = false;
      const cancelling = server.services.campaigns.cancel(run.user, accepted.campaignId).finally(() => {
        answered = true;
      });
      // The cancel waits in the lock queue for the chunk in flight...
      await pollUntil(
        async () => {
          const { rows } = (await server.db.raw(
            `select count(*)::int as n from pg_locks where locktype = 'advisory' and mode = 'ExclusiveLock' and not granted
                and objsubid = 1 and objid::bigint = ? and classid::bigint = hashtext(current_schema())::bigint & 4294967295`,
            [accepted.campaignId],
          )) as { rows: { n: number }[] };
          return rows[0]?.n ?? 0;
        },
        (waiting) => waiting > 0,
        { what: 'the cancel waiting for the chunk in flight', timeoutMs: 30_000 },
      );
      // ...and a chunk that comes after it does not go ahead of it.
      expect(await chunkWriter().materialiseNext()).toBeNull();
      expect(answered).toBe(false);
      await other.end();
      const cancelled = await cancelling;
      expect(cancelled.campaign.status).toBe('cancelled');
      expect(cancelled.counts).toMatchObject({ queued: 0, cancelled: 7 });
      expect(await staged(accepted.campaignId)).toBe(0);
      expect(await server.services.wallet.balance(run.user.id)).toBe(before);
    });
  });
});

describe.skipIf(postgresUnavailable)('a staged send dispatched', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ STAGED_ACCEPTANCE_MIN_RECIPIENTS: '5' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('is materialised by the running server, sent once to each recipient and completed', async () => {
    const user = await buildUser(server, { creditRupees: 100 });
    const template = await buildTemplate(server, user);
    const sender = await server.services.senderNumbers.ensureSandbox(user.id);
    // Last digits 0010 to 0049: none of the simulator's test endings (0000 fails, 0002 is retried).
    const list = Array.from({ length: 40 }, (_, i) => `9197400${String(i + 10).padStart(5, '0')}`);
    const accepted = await server.services.campaignAcceptance.accept({
      user,
      template,
      senderNumberId: sender.id,
      name: 'Staged and sent',
      source: 'bulk',
      recipients: list.map((to) => ({ to, variables: { '1': 'A', '2': to } })),
      invalidCount: 0,
      inSendDuplicates: 0,
    });
    expect(accepted.accepted).toBe(40);
    const done = await pollUntil(
      () => server.services.campaigns.get(user, accepted.campaignId),
      (record) => record.campaign.status === 'completed',
      { what: 'the staged campaign completed', timeoutMs: 60_000 },
    );
    expect(done.counts.queued + done.counts.sending + done.counts.failed).toBe(0);
    const rows = (await server.db('messages').where({ campaignId: accepted.campaignId }).select('recipient', 'providerMessageId')) as { recipient: string; providerMessageId: string | null }[];
    expect(rows.map((row) => row.recipient).sort()).toEqual(list);
    expect(new Set(rows.map((row) => row.providerMessageId)).size).toBe(40);
    expect(rows.every((row) => row.providerMessageId !== null)).toBe(true);
  });
});
