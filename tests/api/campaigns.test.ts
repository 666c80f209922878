import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillMessage, messages } from '@shared/messages';
import type { TAccountOverview, TCampaignList, TTimelinePoint } from '@shared/schemas/reports';
import type { TCampaign, TCampaignAccepted, TCostPreview, TSenderNumber } from '@shared/schemas/sending';
import type { TAdminStats } from '@shared/types';
import type { Template, User } from '../../server/src/models';
import { istDay } from '../../server/src/istCalendar';
import { startBusyLoops } from '../../server/test/busyLoops';
import { plainRecipients } from '../../server/test/campaignFlow';
import { TestClient } from '../../server/test/client';
import { buildTemplate, signedInClient } from '../../server/test/factories';
import { pollUntil, waitForCampaign } from '../../server/test/polling';
import { quickSend as sendQuick } from '../../server/test/sending';
import { postgresUnavailable, startTestServer, TEST_ADMIN, type TestServer } from '../../server/test/server';

/** Marketing's default price, in credit units (Rs 0.80). */
const PRICE_UNITS = 8_000;

/**
 * Campaigns after acceptance. The sandbox sends 20 messages a second here, so a 200-recipient
 * campaign takes about 10 seconds: long enough to pause or cancel it half way.
 */
describe.skipIf(postgresUnavailable)('campaigns: list, live counts, pause, resume, cancel, resend, dashboards', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ SANDBOX_MESSAGES_PER_SECOND: '20' });
  });
  afterAll(async () => {
    await server?.close();
  });

  /** The campaigns' template: two values per recipient. */
  const VALUES = { '1': 'Asha', '2': 'K-1' };
  const approvedTemplate = (user: User) => buildTemplate(server, user, { body: 'Hi {{1}}, your code is {{2}}' });

  const quickSend = (client: TestClient, template: Template, recipients: string[], campaignName?: string): Promise<TCampaignAccepted> =>
    sendQuick(client, { template, recipients, variables: VALUES, ...(campaignName ? { campaignName } : {}) });

  async function campaign(client: TestClient, id: number): Promise<TCampaign> {
    const res = await client.get<{ data: TCampaign }>(`/api/campaigns/${id}`);
    expect(res.status).toBe(200);
    return res.body.data;
  }

  const waitFor = (client: TestClient, id: number, done: (c: TCampaign) => boolean, timeoutMs = 30_000) => waitForCampaign(client, id, done, { timeoutMs, intervalMs: 100 });

  const sentCount = async (campaignId: number) => Number(((await server.db('messages').where({ campaignId }).whereNotNull('sentAt').count({ n: '*' }).first()) as { n: number | string }).n);
  /** Sends the provider (the simulator in this server) has taken so far, from every test of the file. */
  const providerSends = async (client: TestClient) => (await client.get<{ sends: number }>('/simulator/received-counts')).body.sends;

  /** Waits until the provider has taken `count` sends more than `before`: the campaign is under way. */
  const sendsUnderWay = (client: TestClient, before: number, count: number) =>
    pollUntil(() => providerSends(client), (sends) => sends - before >= count, { what: `${count} sends under way`, timeoutMs: 60_000, intervalMs: 50 });

  const WITNESS_RECIPIENTS = 5;
  let witnessNumbers = 9_879_000_000;
  /**
   * Gives the dispatcher its turns while a paused or cancelled campaign must stay still: another
   * user's small campaign is sent to the end meanwhile, so whatever the dispatcher would wrongly
   * send of the stopped one has had its chance. The provider takes WITNESS_RECIPIENTS sends for it.
   */
  async function letTheDispatcherRun(): Promise<void> {
    const { client, user } = await signedInClient(server, { creditRupees: 10 });
    const template = await approvedTemplate(user);
    witnessNumbers += 1_000;
    const accepted = await quickSend(client, template, plainRecipients(WITNESS_RECIPIENTS, witnessNumbers));
    await waitFor(client, accepted.campaignId, (c) => c.counts.queued === 0 && c.counts.sending === 0 && c.counts.unknown === 0 && c.processed === WITNESS_RECIPIENTS, 60_000);
  }

  it('lists only the user\'s own campaigns, newest first, with live counts; another user\'s is not found', async () => {
    const { client: mine, user } = await signedInClient(server, { creditRupees: 20 });
    const { client: theirs } = await signedInClient(server, { creditRupees: 20 });
    const template = await approvedTemplate(user);
    const first = await quickSend(mine, template, ['919870100005', '919870100015'], 'First');
    const second = await quickSend(mine, template, ['919870100025'], 'Second');
    await waitFor(mine, first.campaignId, (c) => c.status === 'completed' && c.counts.read === 2);
    await waitFor(mine, second.campaignId, (c) => c.status === 'completed' && c.counts.read === 1);

    const list = await mine.get<{ success: boolean; data: TCampaignList }>('/api/campaigns');
    expect(list.status).toBe(200);
    expect(list.body.data).toMatchObject({ total: 2, page: 1, totalPages: 1 });
    expect(list.body.data.campaigns.map((c) => c.name)).toEqual(['Second', 'First']);
    const listed = list.body.data.campaigns[1]!;
    expect(listed).toMatchObject({ id: first.campaignId, status: 'completed', totalRecipients: 2, billable: 2, totalCost: 1.6, cancelled: 0 });
    expect(listed.counts).toEqual({ queued: 0, sending: 0, unknown: 0, sent: 0, delivered: 0, read: 2, failed: 0, cancelled: 0, duplicate: 0, suppressed: 0 });
    expect(listed).toEqual(await campaign(mine, first.campaignId));

    const paged = await mine.get<{ data: TCampaignList }>('/api/campaigns?limit=1&page=2');
    expect(paged.body.data).toMatchObject({ total: 2, page: 2, totalPages: 2 });
    expect(paged.body.data.campaigns.map((c) => c.id)).toEqual([first.campaignId]);
    expect((await mine.get<{ data: TCampaignList }>('/api/campaigns?status=running')).body.data).toMatchObject({ total: 0, campaigns: [] });
    expect((await mine.get<{ data: TCampaignList }>('/api/campaigns?status=all')).body.data.total).toBe(2);
    expect((await theirs.get<{ data: TCampaignList }>('/api/campaigns')).body.data).toMatchObject({ total: 0, campaigns: [] });

    for (const [method, path] of [
      ['GET', `/api/campaigns/${first.campaignId}`],
      ['POST', `/api/campaigns/${first.campaignId}/pause`],
      ['POST', `/api/campaigns/${first.campaignId}/resume`],
      ['POST', `/api/campaigns/${first.campaignId}/cancel`],
      ['POST', `/api/campaigns/${first.campaignId}/resend-failed`],
    ] as const) {
      // A POST declares JSON even with nothing in it, as the web app's does (middleware/crossSite.ts).
      const res = await theirs.request(method, path, method === 'POST' ? {} : undefined);
      expect(res.status, path).toBe(404);
      expect(res.body.error).toBe(messages.sending.campaignNotFound);
    }
    expect((await mine.get('/api/campaigns/abc')).status).toBe(400);
    expect((await new TestClient(server.url).get('/api/campaigns')).status).toBe(401);
    expect((await new TestClient(server.url).get('/api/dashboard/overview')).status).toBe(401);

    // Nothing failed: there is nothing to send again.
    const nothing = await mine.post(`/api/campaigns/${first.campaignId}/resend-failed`, {});
    expect(nothing.status).toBe(400);
    expect(nothing.body.error).toBe(messages.campaigns.nothingToResend);
    // A finished campaign cannot be paused, resumed or cancelled.
    expect((await mine.post(`/api/campaigns/${first.campaignId}/pause`)).body).toMatchObject({ error: messages.campaigns.cannotPause, code: 'campaign_not_running' });
    expect((await mine.post(`/api/campaigns/${first.campaignId}/resume`)).status).toBe(409);
    expect((await mine.post(`/api/campaigns/${first.campaignId}/cancel`)).body).toMatchObject({ error: messages.campaigns.cannotCancel });
  });

  it('pauses a running campaign so that nothing more is sent once it answers (on a busy machine), and resumes it to completion', { timeout: 120_000 }, async () => {
    const loops = startBusyLoops();
    try {
      await pauseAndResume();
    } finally {
      await loops.stop();
    }
  });

  async function pauseAndResume(): Promise<void> {
    const { client, user } = await signedInClient(server, { creditRupees: 500 });
    const template = await approvedTemplate(user);
    const recipients = plainRecipients(200, 9_871_000_000);
    const before = await providerSends(client);
    const accepted = await quickSend(client, template, recipients);
    expect(accepted.accepted).toBe(200);
    // Results are stored per batch, so the counts lag: let about 30 go out first.
    await sendsUnderWay(client, before, 30);

    const paused = await client.post<{ data: TCampaign; message: string }>(`/api/campaigns/${accepted.campaignId}/pause`);
    // Final when it answers: whatever the provider has now is all it gets until the resume.
    const providerAtPause = await providerSends(client);
    expect(paused.status).toBe(200);
    expect(paused.body.data.counts).toMatchObject({ sending: 0 });
    expect(paused.body.message).toBe(messages.campaigns.paused);
    expect(paused.body.data.status).toBe('paused');
    const again = await client.post(`/api/campaigns/${accepted.campaignId}/pause`);
    expect(again.status).toBe(409);
    expect(again.body.error).toBe(messages.campaigns.cannotPause);

    // Sends already under way finish; the rest go back to the queue.
    const drained = await waitFor(client, accepted.campaignId, (c) => c.counts.sending === 0, 15_000);
    const sentAtPause = await sentCount(accepted.campaignId);
    expect(await providerSends(client)).toBe(providerAtPause);
    expect(drained.counts.queued).toBeGreaterThan(50);
    expect(sentAtPause).toBeGreaterThan(0);
    expect(sentAtPause).toBeLessThan(150);
    // While another campaign goes out, nothing more of the paused one does.
    await letTheDispatcherRun();
    expect(await sentCount(accepted.campaignId)).toBe(sentAtPause);
    expect(await providerSends(client)).toBe(providerAtPause + WITNESS_RECIPIENTS);
    expect((await campaign(client, accepted.campaignId)).status).toBe('paused');

    const resumed = await client.post<{ data: TCampaign; message: string }>(`/api/campaigns/${accepted.campaignId}/resume`);
    expect(resumed.status).toBe(200);
    expect(resumed.body).toMatchObject({ message: messages.campaigns.resumed, data: { status: 'running' } });
    const done = await waitFor(client, accepted.campaignId, (c) => c.status === 'completed' && c.counts.queued === 0 && c.counts.sending === 0, 40_000);
    expect(done.counts.failed).toBe(0);
    expect(await sentCount(accepted.campaignId)).toBe(200);
    // Nobody got the message twice.
    const counts = (await client.get<{ repeated: { to: string }[] }>('/simulator/received-counts')).body;
    expect(counts.repeated.filter((r) => recipients.includes(r.to))).toEqual([]);
    expect(await server.services.wallet.balance(user.id)).toBe(500 * 10_000 - 200 * PRICE_UNITS);
    expect((await client.post(`/api/campaigns/${accepted.campaignId}/resume`)).body.error).toBe(messages.campaigns.cannotResume);
  }

  it('cancels a running campaign and refunds exactly the messages it did not send, final when it answers on a busy machine', { timeout: 120_000 }, async () => {
    const loops = startBusyLoops();
    try {
      await cancelRunning();
    } finally {
      await loops.stop();
    }
  });

  async function cancelRunning(): Promise<void> {
    const { client, user } = await signedInClient(server, { creditRupees: 500 });
    const template = await approvedTemplate(user);
    // Twice the pause's 200 (20 seconds of sending): beside busy loops the cancel took effect
    // after 154 of 200 had gone, and the test needs a good part left to refund.
    const total = 400;
    const recipients = plainRecipients(total, 9_872_000_000);
    const before = await providerSends(client);
    const accepted = await quickSend(client, template, recipients);
    await sendsUnderWay(client, before, 30);

    const providerCounts = () => providerSends(client);
    const cancelled = await client.post<{ data: TCampaign; message: string }>(`/api/campaigns/${accepted.campaignId}/cancel`);
    const providerAtCancel = await providerCounts();
    expect(cancelled.status).toBe(200);
    // Final when it answers: nothing queued or claimed is left, and the counts add up at once.
    expect(cancelled.body.data.counts).toMatchObject({ queued: 0, sending: 0 });
    const answered = cancelled.body.data.counts;
    expect(answered.sent + answered.delivered + answered.read + answered.failed + answered.cancelled + answered.unknown).toBe(total);
    expect(cancelled.body.message).toBe(messages.campaigns.cancelled);
    expect(cancelled.body.data.status).toBe('cancelled');
    expect(cancelled.body.data.completedAt).not.toBeNull();

    // Messages claimed but not yet sent were taken from the dispatcher by the cancel and refunded:
    // while another campaign goes out, nothing more of the cancelled one does.
    await letTheDispatcherRun();
    expect(await providerCounts(), 'sent after the cancel answered').toBe(providerAtCancel + WITNESS_RECIPIENTS);
    const settled = await campaign(client, accepted.campaignId);
    const rows = (await server.db('messages').where({ campaignId: accepted.campaignId }).select('recipient', 'status', 'errorCode', 'errorMessage', 'refunded', 'sentAt')) as {
      recipient: string;
      status: string;
      errorCode: number | null;
      errorMessage: string | null;
      refunded: unknown;
      sentAt: string | null;
    }[];
    const unsent = rows.filter((r) => r.status === 'cancelled');
    expect(unsent.length).toBeGreaterThan(50);
    expect(unsent.every((r) => r.errorCode === null && r.errorMessage === messages.campaigns.cancelledBeforeSending && Boolean(r.refunded) && r.sentAt === null)).toBe(true);
    expect(rows.filter((r) => r.status !== 'cancelled').every((r) => ['sent', 'delivered', 'read'].includes(r.status) && r.sentAt !== null)).toBe(true);
    expect(settled).toMatchObject({ status: 'cancelled', cancelled: unsent.length, refunded: (unsent.length * PRICE_UNITS) / 10_000 });
    expect(settled.counts).toMatchObject({ failed: 0, cancelled: unsent.length });

    // The ledger gives back exactly the unsent messages' price, and nothing went out to them.
    const refunds = (await server.db('credit_transactions').where({ userId: user.id, type: 'REFUND_ADD', referenceId: String(accepted.campaignId) }).select('amount')) as { amount: number | string }[];
    expect(refunds.reduce((sum, r) => sum + Number(r.amount), 0)).toBe(unsent.length * PRICE_UNITS);
    expect(await server.services.wallet.balance(user.id)).toBe(500 * 10_000 - (total - unsent.length) * PRICE_UNITS);
    const outbox = await client.get(`/simulator/messages?to=${unsent[0]!.recipient}`);
    expect(JSON.stringify(outbox.body)).not.toContain('Asha');
    expect(await sentCount(accepted.campaignId)).toBe(total - unsent.length);

    // What a cancel stopped is no failure: resend to failed has nothing to send.
    const resend = await client.post(`/api/campaigns/${accepted.campaignId}/resend-failed`);
    expect(resend.body).toMatchObject({ error: messages.campaigns.nothingToResend });
    expect((await client.post(`/api/campaigns/${accepted.campaignId}/cancel`)).status).toBe(409);
    expect((await client.post(`/api/campaigns/${accepted.campaignId}/resume`)).status).toBe(409);

    // A paused campaign can be cancelled too.
    const next = await quickSend(client, template, plainRecipients(60, 9_872_100_000));
    expect((await client.post(`/api/campaigns/${next.campaignId}/pause`)).status).toBe(200);
    const stopped = await client.post<{ data: TCampaign }>(`/api/campaigns/${next.campaignId}/cancel`);
    expect(stopped.body.data.status).toBe('cancelled');
    const after = await waitFor(client, next.campaignId, (c) => c.counts.sending === 0 && c.counts.queued === 0, 15_000);
    expect(after.refunded).toBeCloseTo((after.cancelled ?? 0) * 0.8, 4);
    expect(after.counts.cancelled).toBe(after.cancelled);
    expect(after.counts.failed).toBe(0);
  }

  it('resends to the failed recipients of a campaign: previewed, then a new charged campaign with their own values', { timeout: 60_000 }, async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 20 });
    const { client: stranger } = await signedInClient(server, { creditRupees: 20 });
    const template = await approvedTemplate(user);
    const numbers = await client.get<{ data: TSenderNumber[] }>('/api/whatsapp/numbers');
    const people = [
      { Phone: '919873010000', Name: 'Anil', Code: 'A-1' },
      { Phone: '919873020000', Name: 'Bina', Code: 'B-2' },
      { Phone: '919873030000', Name: 'Chitra', Code: 'C-3' },
      { Phone: '919873040005', Name: 'Dev', Code: 'D-4' },
    ];
    const sent = await client.post<{ data: TCampaignAccepted }>('/api/whatsapp/send-custom-messages', {
      templateName: template.name,
      language: 'en_US',
      phoneNumberId: numbers.body.data[0]!.phone_number_id,
      recipientColumn: 'Phone',
      variableMappings: { '1': 'Name', '2': 'Code' },
      data: people,
      campaignName: 'Loyalty codes',
    });
    expect(sent.status).toBe(200);
    const original = sent.body.data.campaignId;
    // …0000 numbers are accepted, then fail by webhook with 131026 and are refunded.
    await waitFor(client, original, (c) => c.status === 'completed' && c.counts.failed === 3 && c.refunded === 2.4);
    // An opted-out recipient is not sent to again.
    await server.db('messages').where({ campaignId: original, recipient: '919873030000' }).update({ errorCode: 131050 });

    const preview = await client.post<{ preview: TCostPreview }>(`/api/campaigns/${original}/resend-failed`);
    expect(preview.status).toBe(200);
    expect(preview.body.preview).toMatchObject({ recipients: 2, billable: 2, duplicates: 0, invalid: 0, suppressed: 0, category: 'MARKETING', pricePerMessage: 0.8, totalCost: 1.6, currency: 'INR', sufficient: true });
    const balance = await server.services.wallet.balance(user.id);
    expect(preview.body.preview.balance).toBe(balance / 10_000);
    expect(preview.body.preview.balanceAfter).toBeCloseTo(balance / 10_000 - 1.6, 4);
    expect(await server.db('campaigns').where({ userId: user.id })).toHaveLength(1);
    expect((await stranger.post(`/api/campaigns/${original}/resend-failed`, { confirm: true })).status).toBe(404);

    const confirmed = await client.post<{ data: TCampaignAccepted; message: string }>(`/api/campaigns/${original}/resend-failed`, { confirm: true });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.data).toMatchObject({ accepted: 2, duplicates: 0, suppressed: 0, totalCost: 1.6 });
    expect(confirmed.body.message).toBe(fillMessage(messages.campaigns.resendAccepted, { count: '2' }));
    const resend = await campaign(client, confirmed.body.data.campaignId);
    expect(resend).toMatchObject({ name: 'Resend: Loyalty codes', source: 'custom', templateName: template.name, totalRecipients: 2, billable: 2, totalCost: 1.6 });
    const rows = (await server.db('messages').where({ campaignId: resend.id }).orderBy('recipient').select('recipient', 'variables')) as { recipient: string; variables: string }[];
    expect(rows.map((r) => [r.recipient, JSON.parse(r.variables)])).toEqual([
      ['919873010000', { '1': 'Anil', '2': 'A-1' }],
      ['919873020000', { '1': 'Bina', '2': 'B-2' }],
    ]);
    const debit = (await server.db('credit_transactions').where({ userId: user.id, type: 'CAMPAIGN_DEBIT', referenceId: String(resend.id) }).first('amount')) as { amount: number | string };
    expect(Number(debit.amount)).toBe(-2 * PRICE_UNITS);

    // Sent again (the provider rendered them with their values) and failed again: they are test numbers.
    await waitFor(client, resend.id, (c) => c.status === 'completed' && c.counts.failed === 2 && c.refunded === 1.6);
    const failures = (await server.db('messages').where({ campaignId: resend.id }).select('errorCode')) as { errorCode: number }[];
    expect(failures.map((f) => f.errorCode)).toEqual([131026, 131026]);
    const counts = (await client.get<{ repeated: { to: string; count: number }[] }>('/simulator/received-counts')).body;
    expect(counts.repeated.filter((r) => r.to.startsWith('91987302') || r.to.startsWith('91987301'))).toEqual(
      expect.arrayContaining([
        { to: '919873010000', count: 2 },
        { to: '919873020000', count: 2 },
      ]),
    );
    expect(counts.repeated.some((r) => r.to === '919873030000')).toBe(false);

    // The original says its failures were resent instead of offering them again.
    expect(await campaign(client, original)).toMatchObject({ resentCampaignId: resend.id });
    const again = await client.post(`/api/campaigns/${original}/resend-failed`, { confirm: false });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: messages.campaigns.alreadyResent, code: 'already_resent' });
    // Failed messages block nothing: the resend's own failures can be sent once more.
    const second = await client.post<{ preview: TCostPreview }>(`/api/campaigns/${resend.id}/resend-failed`, { confirm: false });
    expect(second.body.preview).toMatchObject({ recipients: 2, billable: 2 });
  });

  it('answers the reports timeline and the Account Overview from the user\'s own messages', { timeout: 60_000 }, async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 20 });
    const template = await approvedTemplate(user);
    // 0005 and 0015 are read, 0001 is delivered and never read, 0000 numbers fail.
    const accepted = await quickSend(client, template, ['919874000005', '919874000015', '919874000001', '919874010000', '919874020000']);
    await waitFor(client, accepted.campaignId, (c) => c.status === 'completed' && c.counts.read === 2 && c.counts.delivered === 1 && c.counts.failed === 2);

    const timeline = await client.get<{ data: TTimelinePoint[] }>('/api/campaigns/timeline?days=7');
    expect(timeline.status).toBe(200);
    expect(timeline.body.data).toHaveLength(7);
    expect(timeline.body.data.at(-1)!.date).toBe(istDay(new Date()));
    const total = (key: 'sent' | 'delivered' | 'read' | 'failed') => timeline.body.data.reduce((sum, point) => sum + point[key], 0);
    // The failed ones were sent first; a read message was delivered too.
    expect({ sent: total('sent'), delivered: total('delivered'), read: total('read'), failed: total('failed') }).toEqual({ sent: 5, delivered: 3, read: 2, failed: 2 });
    expect((await client.get<{ data: TTimelinePoint[] }>('/api/campaigns/timeline')).body.data).toHaveLength(30);
    expect((await client.get('/api/campaigns/timeline?days=0')).status).toBe(400);

    const overview = await client.get<{ data: TAccountOverview }>('/api/dashboard/overview');
    expect(overview.status).toBe(200);
    expect(overview.body.data).toEqual({ messagesThisMonth: 5, deliveryRate: 60, readRate: 40, spendThisMonth: 2.4, refundsThisMonth: 1.6, activeCampaigns: 0 });

    // A paused campaign is active; once cancelled it is not, and its unsent messages count as
    // cancelled ones, as the reports' total counts them.
    const other = await quickSend(client, template, plainRecipients(20, 9_874_100_000));
    await client.post(`/api/campaigns/${other.campaignId}/pause`);
    expect((await client.get<{ data: TAccountOverview }>('/api/dashboard/overview')).body.data.activeCampaigns).toBe(1);
    await client.post(`/api/campaigns/${other.campaignId}/cancel`);
    const stopped = await waitFor(client, other.campaignId, (c) => c.counts.sending === 0 && c.counts.queued === 0, 15_000);
    const after = (await client.get<{ data: TAccountOverview }>('/api/dashboard/overview')).body.data;
    expect(after.activeCampaigns).toBe(0);
    expect(after.messagesThisMonth).toBe(5 + 20);
    expect(after.spendThisMonth).toBeCloseTo(2.4 + (20 - (stopped.cancelled ?? 0)) * 0.8, 4);
  });

  it('adds platform usage to the admin stats', { timeout: 60_000 }, async () => {
    const admin = new TestClient(server.url);
    expect((await admin.post('/api/auth/login', TEST_ADMIN)).status).toBe(200);
    const before = (await admin.get<{ stats: TAdminStats }>('/api/admin/stats')).body.stats;
    expect(before).toEqual(
      expect.objectContaining({ totalUsers: expect.any(Number), regularUsers: expect.any(Number), configuredUsers: expect.any(Number), totalCredits: expect.any(Number), messagesToday: expect.any(Number) }),
    );

    const { client, user } = await signedInClient(server, { creditRupees: 20 });
    const template = await approvedTemplate(user);
    const accepted = await quickSend(client, template, ['919875000005', '919875000015', '919875010000']);
    await waitFor(client, accepted.campaignId, (c) => c.status === 'completed' && c.counts.failed === 1 && c.refunded === 0.8);

    const res = await admin.get<{ stats: TAdminStats }>('/api/admin/stats');
    expect(res.status).toBe(200);
    const after = res.body.stats;
    expect(after.messagesToday - before.messagesToday).toBe(3);
    expect(after.messagesThisMonth - before.messagesThisMonth).toBe(3);
    expect(after.spendThisMonth - before.spendThisMonth).toBeCloseTo(1.6, 4);
    expect(after.totalCredits - before.totalCredits).toBeCloseTo(20 - 1.6, 2);
    expect((await client.get('/api/admin/stats')).status).toBe(403);
  });
});
