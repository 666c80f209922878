/**
 * Log Management (spec 001): the cleanup's stats and run for admins only, the daily job
 * run once between two instances with an injected clock, and per-day totals that keep the
 * dashboards, the admin usage and campaign totals true after old rows are deleted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@shared/messages';
import type { TLogCleanupResponse, TLogCleanupStatsResponse } from '@shared/schemas/logs';
import type { TAccountOverview, TTimelinePoint } from '@shared/schemas/reports';
import type { TCampaign, TCampaignAccepted, TSenderNumber } from '@shared/schemas/sending';
import type { TAdminStats } from '@shared/types';
import { createDatabase } from '../../server/src/db/knex';
import { createLogger } from '../../server/src/logger';
import type { Template, User } from '../../server/src/models';
import { DailyCleanupScheduler } from '../../server/src/retention/scheduler';
import { retentionStoreFor } from '../../server/src/retention/store';
import { RetentionService } from '../../server/src/retention/service';
import { TestClient } from '../../server/test/client';
import { buildTemplate, signedInClient } from '../../server/test/factories';
import { waitForCampaign } from '../../server/test/polling';
import { postgresUnavailable, startTestServer, TEST_ADMIN, testDatabaseKind, type TestServer } from '../../server/test/server';

const DAY_MS = 86_400_000;

describe.skipIf(postgresUnavailable)('log cleanup', () => {
  let server: TestServer;
  let admin: TestClient;

  beforeAll(async () => {
    server = await startTestServer();
    admin = new TestClient(server.url);
    expect((await admin.post('/api/auth/login', { username: TEST_ADMIN.username, password: TEST_ADMIN.password })).status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
  });

  const approvedTemplate = (user: User) => buildTemplate(server, user, { body: 'Hi {{1}}' });

  /** Sends and waits until every message reached its final status (…0000 fails at the simulator). */
  async function settledCampaign(client: TestClient, template: Template, recipients: string[]): Promise<TCampaign> {
    const numbers = await client.get<{ data: TSenderNumber[] }>('/api/whatsapp/numbers');
    const sent = await client.post<{ data: TCampaignAccepted }>('/api/whatsapp/quick-send', {
      phone_number_id: numbers.body.data[0]!.phone_number_id,
      template_name: template.name,
      language: 'en_US',
      recipients_text: recipients.join('\n'),
      variables: { '1': 'Asha' },
    });
    expect(sent.status).toBe(200);
    // …0001 is never read; the others are read, …0000 fails.
    return waitForCampaign(
      client,
      sent.body.data.campaignId,
      (c) => c.status === 'completed' && c.counts.read + c.counts.failed + c.counts.delivered === recipients.length && c.counts.delivered <= 1,
      { timeoutMs: 30_000, intervalMs: 100 },
    );
  }

  async function backdate(campaignId: number, days: number, messageIds?: number[]): Promise<void> {
    const at = new Date(Date.now() - days * DAY_MS).toISOString();
    const query = server.db('messages').where({ campaignId });
    if (messageIds) query.whereIn('id', messageIds);
    await query.update({ createdAt: at });
    if (!messageIds) await server.db('campaigns').where({ id: campaignId }).update({ createdAt: at });
  }

  it('is for admins only: a user gets 403 and a visitor 401', async () => {
    const { client } = await signedInClient(server);
    expect((await client.get('/api/logs/cleanup/stats')).status).toBe(403);
    expect((await client.post('/api/logs/cleanup')).status).toBe(403);
    expect((await new TestClient(server.url).get('/api/logs/cleanup/stats')).status).toBe(401);
  });

  it('counts old message and campaign logs before the threshold, deletes them with their status events, and keeps campaign totals true', async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 50 });
    const template = await approvedTemplate(user);
    const partly = await settledCampaign(client, template, ['919870300010', '919870300020', '919870300000', '919870300001']);
    const wholly = await settledCampaign(client, template, ['919870300030', '919870300040']);
    const partlyIds = (await server.db('messages').where({ campaignId: partly.id }).orderBy('id').limit(2).pluck('id')) as number[];
    await backdate(partly.id, 100, partlyIds.map(Number));
    await backdate(wholly.id, 120);
    // Its next try is an hour away: due now, the status worker could take it first and queue it
    // again as a new row (seen once on PostgreSQL with three busy loops beside the suite).
    await server.db('status_events').insert({ providerMessageId: 'wamid.old-event', status: 'read', occurredAt: new Date(Date.now() - 95 * DAY_MS).toISOString(), tries: 1, availableAt: new Date(Date.now() + 3_600_000).toISOString(), createdAt: new Date(Date.now() - 95 * DAY_MS).toISOString() });

    const before = await admin.get<TLogCleanupStatsResponse>('/api/logs/cleanup/stats');
    expect(before.status).toBe(200);
    expect(before.body.retentionDays).toBe(90);
    const threshold = Date.parse(before.body.stats.thresholdDate);
    expect(Math.abs(threshold - (Date.now() - 90 * DAY_MS))).toBeLessThan(60_000);
    // Other tests in this file may add old rows of their own: compare with what this one made.
    expect(before.body.stats.messageLogsCount).toBeGreaterThanOrEqual(4);
    expect(before.body.stats.campaignLogsCount).toBeGreaterThanOrEqual(1);
    expect(before.body.stats.totalCount).toBe(before.body.stats.messageLogsCount + before.body.stats.campaignLogsCount);

    const run = await admin.post<TLogCleanupResponse>('/api/logs/cleanup');
    expect(run.status).toBe(200);
    expect(run.body.deleted.messagesDeleted).toBe(before.body.stats.messageLogsCount);
    expect(run.body.deleted.campaignsDeleted).toBe(before.body.stats.campaignLogsCount);
    expect(run.body.deleted.totalDeleted).toBe(before.body.stats.totalCount);
    expect(run.body.deleted.statusEventsDeleted).toBeGreaterThanOrEqual(1);

    expect(await server.db('messages').whereIn('id', partlyIds).count({ n: '*' }).first()).toMatchObject({ n: expect.anything() });
    expect(Number(((await server.db('messages').whereIn('id', partlyIds).count({ n: '*' }).first()) as { n: number | string }).n)).toBe(0);
    expect(await server.db('campaigns').where({ id: wholly.id }).first()).toBeUndefined();
    expect(await server.db('status_events').where({ providerMessageId: 'wamid.old-event' }).first()).toBeUndefined();
    // The campaign that keeps recent messages still shows every recipient's outcome.
    const after = await client.get<{ data: TCampaign }>(`/api/campaigns/${partly.id}`);
    expect(after.body.data.counts).toEqual(partly.counts);
    // The ledger is never touched.
    expect(Number(((await server.db('credit_transactions').where({ userId: user.id }).count({ n: '*' }).first()) as { n: number | string }).n)).toBeGreaterThanOrEqual(3);

    const empty = await admin.get<TLogCleanupStatsResponse>('/api/logs/cleanup/stats');
    expect(empty.body.stats.totalCount).toBe(0);
    const nothing = await admin.post<TLogCleanupResponse>('/api/logs/cleanup');
    expect(nothing.body.deleted.totalDeleted).toBe(0);
    expect(nothing.body.message).toBe(messages.logs.nothingToClean);
  });

  it('keeps the dashboards and the admin usage true after every row behind them is deleted', async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 50 });
    const template = await approvedTemplate(user);
    await settledCampaign(client, template, ['919870400010', '919870400020', '919870400000', '919870400001']);
    const figures = async () => ({
      overview: (await client.get<{ data: TAccountOverview }>('/api/dashboard/overview')).body.data,
      timeline: (await client.get<{ data: TTimelinePoint[] }>('/api/campaigns/timeline?days=7')).body.data,
      stats: (await admin.get<{ stats: TAdminStats }>('/api/admin/stats')).body.stats,
    });
    const before = await figures();
    expect(before.overview.messagesThisMonth).toBe(4);

    // A retention of 0 days a minute from now: every finished row of this month is old.
    const retention = new RetentionService({ db: server.db, store: retentionStoreFor(server.config.database.kind), dataDir: server.dataDir, retentionDays: 0, log: server.logger, now: () => new Date(Date.now() + 60_000), batchSize: 3 });
    const run = await retention.cleanup({ trigger: 'manual' });
    expect(run!.messagesDeleted).toBeGreaterThanOrEqual(4);
    expect(Number(((await server.db('messages').where({ userId: user.id }).count({ n: '*' }).first()) as { n: number | string }).n)).toBe(0);
    expect(Number(((await server.db('campaigns').where({ userId: user.id }).count({ n: '*' }).first()) as { n: number | string }).n)).toBe(0);

    const after = await figures();
    expect(after.overview).toEqual(before.overview);
    expect(after.timeline).toEqual(before.timeline);
    expect(after.stats.messagesToday).toBe(before.stats.messagesToday);
    expect(after.stats.messagesThisMonth).toBe(before.stats.messagesThisMonth);
    expect(after.stats.spendThisMonth).toBe(before.stats.spendThisMonth);
  });

  it('deletes the final messages among and behind old ones it keeps (still queued), batch after batch', async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 50 });
    const template = await approvedTemplate(user);
    const campaign = await settledCampaign(client, template, ['919870600010', '919870600020', '919870600030', '919870600040', '919870600050']);
    const ids = ((await server.db('messages').where({ campaignId: campaign.id }).orderBy('id').pluck('id')) as (number | string)[]).map(Number);
    const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString();
    // Oldest first: a kept (queued) message, then final ones sharing its time, a second kept one, a later final one.
    await server.db('messages').whereIn('id', [ids[0]!]).update({ createdAt: daysAgo(120), status: 'queued', nextAttemptAt: new Date(Date.now() + DAY_MS).toISOString() });
    await server.db('messages').whereIn('id', [ids[1]!, ids[2]!]).update({ createdAt: daysAgo(120) });
    await server.db('messages').whereIn('id', [ids[3]!]).update({ createdAt: daysAgo(110), status: 'queued', nextAttemptAt: new Date(Date.now() + DAY_MS).toISOString() });
    await server.db('messages').whereIn('id', [ids[4]!]).update({ createdAt: daysAgo(100) });

    const retention = new RetentionService({ db: server.db, store: retentionStoreFor(server.config.database.kind), dataDir: server.dataDir, retentionDays: 90, log: server.logger, batchSize: 1 });
    const run = await retention.cleanup({ trigger: 'manual' });
    expect(run!.messagesDeleted).toBeGreaterThanOrEqual(3);
    const left = ((await server.db('messages').where({ campaignId: campaign.id }).orderBy('id').pluck('id')) as (number | string)[]).map(Number);
    expect(left).toEqual([ids[0], ids[3]]);
  });

  it("takes deleted messages out of the reports' search index, and finds the ones not yet indexed", async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 50 });
    const template = await approvedTemplate(user);
    // x and z: every message to them goes (z is messaged again after); y: messaged again before the cleanup.
    const [x, y, z] = ['919870700011', '919870700022', '919870700033'] as const;
    const old = await settledCampaign(client, template, [x, y, z]);
    await backdate(old.id, 100);
    await settledCampaign(client, template, [y]);
    /** The user's numbers in the index, each with how many of its entries are live. */
    const indexed = async (): Promise<[string, number][]> => {
      await server.services.recipientNumbers.drain();
      if (testDatabaseKind() === 'postgres') {
        const rows = (await server.db('recipient_numbers').where({ userId: user.id }).orderBy('recipient').select('recipient', 'orphanedAt')) as { recipient: string; orphanedAt: Date | null }[];
        return rows.map((row) => [row.recipient, row.orphanedAt === null ? 1 : 0]);
      }
      // Every entry has its message (an entry left behind by a deleted message fails this, and fails the search).
      await server.db.raw("insert into messages_recipient_search (messages_recipient_search, rank) values ('integrity-check', 1)");
      const rows = (await server.db.raw(
        `select m.recipient, count(*) as "entries" from messages_recipient_search s cross join messages m on m.id = s.rowid
         where s.recipient like '%9870700%' and m.user_id = ? group by m.recipient order by m.recipient`,
        [user.id],
      )) as { recipient: string; entries: number }[];
      return rows.map((row) => [row.recipient, Number(row.entries)]);
    };
    // PostgreSQL keeps each number once, though y was messaged twice; SQLite indexes each message.
    const perMessage = testDatabaseKind() === 'sqlite' ? 2 : 1;
    expect(await indexed()).toEqual([[x, 1], [y, perMessage], [z, 1]]);

    const run = await new RetentionService({ db: server.db, store: retentionStoreFor(server.config.database.kind), dataDir: server.dataDir, retentionDays: 90, log: server.logger, batchSize: 1 }).cleanup({ trigger: 'manual' });
    expect(run!.messagesDeleted).toBeGreaterThanOrEqual(3);
    expect(await indexed()).toEqual([[y, 1]]);
    await settledCampaign(client, template, [z]);
    expect(await indexed()).toEqual([[y, 1], [z, 1]]);
    // The search by part of a number finds every message there is, and only those.
    const found = async (digits: string) => {
      const res = await client.get<{ data: { total: number } }>(`/api/whatsapp/reports?recipientNumber=${digits}`);
      expect(res.status).toBe(200);
      return res.body.data.total;
    };
    expect([await found(x.slice(4)), await found(y.slice(4)), await found(z.slice(4)), await found('98707000')]).toEqual([0, 1, 1, 2]);

    // A number not yet moved into the index is found all the same.
    const w = '919870700044';
    await server.services.recipientNumbers.stop();
    try {
      await settledCampaign(client, template, [w]);
      if (testDatabaseKind() === 'postgres') expect(await server.db('recipient_numbers_pending').where({ userId: user.id }).first('campaignId')).toBeDefined();
      else expect(await server.db('messages').where({ userId: user.id, recipient: w }).where('id', '>', server.db('recipient_search_progress').select('lastMessageId')).first('id')).toBeDefined();
      expect([await found(w), await found('98707000')]).toEqual([1, 3]);
    } finally {
      server.services.recipientNumbers.start();
    }
    expect(await indexed()).toEqual([[y, 1], [z, 1], [w, 1]]);
  });

  it('runs the daily job once at 02:00 UTC between two instances, and again the next day', async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 20 });
    const template = await approvedTemplate(user);
    const old = await settledCampaign(client, template, ['919870500010', '919870500020']);
    await backdate(old.id, 200);

    // Two instances: each its own connection pool, its own service and scheduler, one clock.
    let clock = new Date('2031-03-04T01:59:00.000Z');
    const now = () => clock;
    const logger = createLogger(server.config);
    const pools = [createDatabase(server.config.database), createDatabase(server.config.database)];
    try {
      const schedulers = pools.map((db) => new DailyCleanupScheduler({ retention: new RetentionService({ db, store: retentionStoreFor(server.config.database.kind), dataDir: server.dataDir, retentionDays: 90, log: logger, now, batchSize: 1 }), hourUtc: 2, log: logger, now }));
      expect(await Promise.all(schedulers.map((s) => s.tick()))).toEqual([null, null]);

      clock = new Date('2031-03-04T02:00:30.000Z');
      const runs = await Promise.all(schedulers.map((s) => s.tick()));
      const ran = runs.filter((run) => run !== null);
      expect(ran).toHaveLength(1);
      expect(ran[0]!.messagesDeleted).toBeGreaterThanOrEqual(2);
      expect(await server.db('messages').where({ campaignId: old.id }).first()).toBeUndefined();
      expect(await server.db('log_cleanup_runs').where({ runKey: 'daily:2031-03-04' }).select('id')).toHaveLength(1);

      // Later the same day: already done.
      clock = new Date('2031-03-04T17:00:00.000Z');
      expect(await Promise.all(schedulers.map((s) => s.tick()))).toEqual([null, null]);

      // The next day it runs again, once; the admin screen shows it as the last daily run.
      clock = new Date('2031-03-05T02:01:00.000Z');
      expect((await Promise.all(schedulers.map((s) => s.tick()))).filter((run) => run !== null)).toHaveLength(1);
      const stats = await admin.get<TLogCleanupStatsResponse>('/api/logs/cleanup/stats');
      expect(stats.body.lastDailyRun).toMatchObject({ startedAt: '2031-03-05T02:01:00.000Z', error: null });
    } finally {
      await Promise.all(pools.map((db) => db.destroy()));
    }
  });
});
