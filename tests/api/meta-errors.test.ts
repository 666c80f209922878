/**
 * Meta's errors read by the error table (providers/metaErrors.ts), through the simulator told to
 * answer them for one sender number: a rate limit is retried and the message goes out once; a
 * per-message error fails the message and refunds it to the paisa, with Meta's fields kept on the
 * message; an expired token stops the number, pauses its campaign after at most the sends in flight,
 * and fixing the credentials or "Resume" sends the rest, none twice; 132015 pauses the template and
 * holds its campaign; 132016 and 132001 disable it and its campaign fails, refunded to the paisa.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TPublicMessage } from '@shared/schemas/messages';
import type { TCampaign, TSenderNumber } from '@shared/schemas/sending';
import type { TReportsPage } from '@shared/schemas/reports';
import type { User } from '../../server/src/models';
import type { CloudApiSimulator } from '../../server/src/simulator/cloudApiSimulator';
import { plainRecipients } from '../../server/test/campaignFlow';
import { TestClient } from '../../server/test/client';
import { adminOf, buildTemplate, signedInClient } from '../../server/test/factories';
import { pollUntil, waitForCampaign } from '../../server/test/polling';
import { quickSend, sandboxNumber } from '../../server/test/sending';
import { postgresUnavailable, startTestServer, TEST_ADMIN, type TestServer } from '../../server/test/server';

const VALUES = { '1': 'Asha', '2': 'K-1' };
const BODY = 'Hi {{1}}, your code is {{2}}';

describe.skipIf(postgresUnavailable)("Meta's errors: retry, fail and refund, stop the sender and resume", () => {
  let server: TestServer;
  let simulator: CloudApiSimulator;
  let admin: TestClient;
  beforeAll(async () => {
    // A standard number: 80 messages a second, as Meta's default throughput.
    server = await startTestServer({ SANDBOX_MESSAGES_PER_SECOND: '80' });
    const embedded = server.services.simulator;
    if (!embedded) throw new Error('the test server runs the simulator');
    simulator = embedded;
    admin = new TestClient(server.url);
    expect((await admin.post('/api/auth/login', TEST_ADMIN)).status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
  });

  const balance = (user: User) => server.services.wallet.balance(user.id);
  const campaignOf = async (client: TestClient, id: number) => (await client.get<{ data: TCampaign }>(`/api/campaigns/${id}`)).body.data;
  const numberOf = async (client: TestClient) => (await client.get<{ data: TSenderNumber[] }>('/api/whatsapp/numbers')).body.data[0] as TSenderNumber;
  const settled = (c: TCampaign) => c.counts.queued === 0 && c.counts.sending === 0 && c.counts.unknown === 0;

  it('retries a rate limit (131048) and a transient 131000, then sends each message once, charged once', { timeout: 90_000 }, async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 50 });
    const template = await buildTemplate(server, user, { body: BODY });
    const number = await sandboxNumber(client);
    const opening = await balance(user);
    simulator.setFault(number.phone_number_id, { code: 131048, times: 2 });
    const accepted = await quickSend(client, { template, recipients: plainRecipients(3, 9_711_000_000), variables: VALUES });
    const charged = await balance(user);
    expect(charged).toBeLessThan(opening);
    const done = await waitForCampaign(client, accepted.campaignId, (c) => c.status === 'completed' && settled(c), { timeoutMs: 60_000 });
    expect(done.counts.failed).toBe(0);
    expect(done.counts.sent + done.counts.delivered + done.counts.read).toBe(3);

    simulator.setFault(number.phone_number_id, { code: 131000, isTransient: true, httpStatus: 400, times: 1 });
    const second = await quickSend(client, { template, recipients: plainRecipients(2, 9_712_000_000), variables: VALUES });
    const secondDone = await waitForCampaign(client, second.campaignId, (c) => c.status === 'completed' && settled(c), { timeoutMs: 60_000 });
    expect(secondDone.counts.failed).toBe(0);
    const rows = (await server.db('messages').whereIn('campaignId', [accepted.campaignId, second.campaignId]).select('status', 'refunded', 'attempts')) as { status: string; refunded: unknown; attempts: number }[];
    expect(rows.every((row) => !row.refunded)).toBe(true);
    expect(rows.some((row) => Number(row.attempts) > 1)).toBe(true);
    expect(simulator.receivedCounts().repeated.filter((r) => r.to.startsWith('91971'))).toEqual([]);
    // Five messages charged once each, none refunded.
    const price = (opening - charged) / 3;
    expect(await balance(user)).toBe(opening - 5 * price);
  });

  it('fails a per-message error (132000) and refunds it exactly, keeping Meta\'s fields for GET /api/messages/{id} and the reports', { timeout: 90_000 }, async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 50 });
    const template = await buildTemplate(server, user, { body: BODY });
    const number = await sandboxNumber(client);
    const opening = await balance(user);
    simulator.setFault(number.phone_number_id, { code: 132000, subcode: 2494002, details: 'body: expected number of params (2) does not match received number of params (1)' });
    const accepted = await quickSend(client, { template, recipients: plainRecipients(4, 9_713_000_000), variables: VALUES });
    expect(await balance(user)).toBeLessThan(opening);
    const done = await waitForCampaign(client, accepted.campaignId, (c) => c.status === 'completed' && settled(c), { timeoutMs: 60_000 });
    simulator.setFault(number.phone_number_id, null);
    expect(done.counts.failed).toBe(4);
    // Refunded to the paisa: the wallet is back where it was.
    expect(await balance(user)).toBe(opening);

    const row = (await server.db('messages').where({ campaignId: accepted.campaignId }).first('id')) as { id: number };
    const message = await client.get<TPublicMessage>(`/api/messages/msg_${row.id}`);
    expect(message.status).toBe(200);
    expect(message.body).toMatchObject({ status: 'failed', error_code: 132000, cost: 0 });
    expect(message.body.error).toMatchObject({ code: 132000, subcode: 2494002, details: 'body: expected number of params (2) does not match received number of params (1)', is_transient: false });
    expect(message.body.error?.title).toBe('Template Param Count Mismatch');
    expect(message.body.error?.fbtrace_id).toMatch(/^SIM[0-9a-f]+$/);

    const reports = await client.get<{ data: TReportsPage }>('/api/whatsapp/reports?status=failed');
    expect(reports.status).toBe(200);
    const reported = reports.body.data.reports.find((r) => r.id === row.id);
    expect(reported?.error).toMatchObject({ code: 132000, subcode: 2494002, is_transient: false });
  });

  it("keeps the error of a status webhook's errors[] on the failed message", { timeout: 60_000 }, async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 10 });
    const template = await buildTemplate(server, user, { body: BODY });
    const opening = await balance(user);
    // The simulator accepts a send to a number ending 0000, then reports it failed with 131026.
    const accepted = await quickSend(client, { template, recipients: ['919719990000'], variables: VALUES });
    await waitForCampaign(client, accepted.campaignId, (c) => c.counts.failed === 1, { timeoutMs: 30_000 });
    const row = (await server.db('messages').where({ campaignId: accepted.campaignId }).first('id')) as { id: number };
    const message = await client.get<TPublicMessage>(`/api/messages/msg_${row.id}`);
    expect(message.body.error).toMatchObject({ code: 131026, title: 'Message undeliverable', details: 'Message Undeliverable.' });
    expect(await balance(user)).toBe(opening);
  });

  it('stops a number whose token expired: fewer than 100 requests reach Meta, the campaign waits paused with the reason; Resume sends the rest once, the wallet exact', { timeout: 180_000 }, async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 1_000 });
    const template = await buildTemplate(server, user, { body: BODY });
    const number = await sandboxNumber(client);
    const recipients = plainRecipients(300, 9_714_000_000);
    const before = simulator.requestsFor(number.phone_number_id);
    simulator.expireToken(number.phone_number_id);
    const accepted = await quickSend(client, { template, recipients, variables: VALUES });
    expect(accepted.accepted).toBe(300);
    const charged = await balance(user);

    const paused = await waitForCampaign(client, accepted.campaignId, (c) => c.status === 'paused' && c.counts.sending === 0, { timeoutMs: 60_000 });
    expect(paused.pauseReason).toBe('sender_stopped');
    expect(paused.counts.queued).toBe(300);
    expect(paused.counts.failed).toBe(0);
    // The refusal was the number's, not the messages': none of them used up a try.
    const tries = (await server.db('messages').where({ campaignId: accepted.campaignId }).max({ most: 'attempts' })) as { most: number | string }[];
    expect(Number(tries[0]?.most)).toBe(0);
    const requests = simulator.requestsFor(number.phone_number_id) - before;
    expect(requests).toBeGreaterThan(0);
    expect(requests).toBeLessThan(100);

    const stopped = await numberOf(client);
    expect(stopped.sending_stopped).toMatchObject({ code: 190 });
    expect(stopped.sending_stopped?.reason).toContain('Session has expired');
    const ownerNotice = (await server.db('notifications').where({ userId: user.id, kind: 'sender_stopped' }).select('id')) as unknown[];
    expect(ownerNotice).toHaveLength(1);
    const adminUser = await adminOf(server);
    expect(await server.db('notifications').where({ userId: adminUser.id, kind: 'sender_stopped' }).first('id')).toBeDefined();

    // Still paused after another campaign was sent to its end: nothing more went to Meta.
    const { client: other, user: otherUser } = await signedInClient(server, { creditRupees: 10 });
    const otherTemplate = await buildTemplate(server, otherUser, { body: BODY });
    const witness = await quickSend(other, { template: otherTemplate, recipients: plainRecipients(5, 9_715_000_000), variables: VALUES });
    await waitForCampaign(other, witness.campaignId, (c) => c.status === 'completed' && settled(c), { timeoutMs: 60_000 });
    expect(simulator.requestsFor(number.phone_number_id) - before).toBe(requests);
    expect((await campaignOf(client, accepted.campaignId)).status).toBe('paused');

    // The token is renewed at Meta; the owner resumes the campaign, which resumes its number.
    simulator.expireToken(number.phone_number_id, false);
    const resume = await client.post<{ data: TCampaign }>(`/api/campaigns/${accepted.campaignId}/resume`);
    expect(resume.status, JSON.stringify(resume.body)).toBe(200);
    const done = await waitForCampaign(client, accepted.campaignId, (c) => c.status === 'completed' && settled(c), { timeoutMs: 120_000 });
    expect(done.counts.failed).toBe(0);
    expect(done.counts.sent + done.counts.delivered + done.counts.read).toBe(300);
    const wanted = new Set(recipients);
    expect(simulator.receivedCounts().repeated.filter((r) => wanted.has(r.to))).toEqual([]);
    expect(await balance(user)).toBe(charged);
    expect((await numberOf(client)).sending_stopped).toBeNull();
  });

  it('stops mid-way and sends the rest when the credentials are saved again, or on the number\'s "Resume sending"', { timeout: 180_000 }, async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 1_000 });
    const template = await buildTemplate(server, user, { body: BODY });
    const number = await sandboxNumber(client);
    const recipients = plainRecipients(200, 9_716_000_000);
    const before = simulator.requestsFor(number.phone_number_id);
    const accepted = await quickSend(client, { template, recipients, variables: VALUES });
    const charged = await balance(user);
    await pollUntil(() => Promise.resolve(simulator.requestsFor(number.phone_number_id) - before), (n) => n >= 10, { what: 'sends under way', timeoutMs: 60_000 });
    simulator.setFault(number.phone_number_id, { code: 368, details: 'Temporarily blocked for policies violations' });
    const paused = await waitForCampaign(client, accepted.campaignId, (c) => c.status === 'paused' && c.counts.sending === 0, { timeoutMs: 60_000 });
    expect(paused.pauseReason).toBe('sender_stopped');
    expect((await numberOf(client)).sending_stopped).toMatchObject({ code: 368 });
    // The admin sees the same on the user's provider page.
    const adminView = await admin.get<{ data: TSenderNumber[] }>(`/api/admin/users/${user.id}/sender-numbers`);
    expect(adminView.body.data.find((n) => n.id === number.id)?.sending_stopped).toMatchObject({ code: 368, reason: expect.stringContaining('policies') as unknown as string });

    // Nothing to resume on a number that sends: 409. Then the block lifts and the admin saves the
    // owner's business settings (new credentials): the rest goes out.
    simulator.setFault(number.phone_number_id, null);
    const saved = await admin.put(`/api/admin/users/${user.id}/business-info`, { businessName: 'Fixed business' });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const done = await waitForCampaign(client, accepted.campaignId, (c) => c.status === 'completed' && settled(c), { timeoutMs: 120_000 });
    expect(done.counts.failed).toBe(0);
    expect(done.counts.sent + done.counts.delivered + done.counts.read).toBe(200);
    const wanted = new Set(recipients);
    expect(simulator.receivedCounts().repeated.filter((r) => wanted.has(r.to))).toEqual([]);
    expect(await balance(user)).toBe(charged);
    expect((await client.post(`/api/whatsapp/numbers/${number.id}/resume-sending`)).status).toBe(409);

    // A permissions error (10) stops it again; the number's own "Resume sending" sends the rest.
    simulator.setFault(number.phone_number_id, { code: 10, times: 1 });
    const next = await quickSend(client, { template, recipients: plainRecipients(20, 9_717_000_000), variables: VALUES });
    await waitForCampaign(client, next.campaignId, (c) => c.status === 'paused' && c.pauseReason === 'sender_stopped' && c.counts.sending === 0, { timeoutMs: 60_000 });
    expect((await client.post(`/api/admin/users/${user.id}/sender-numbers/${number.id}/resume-sending`)).status).toBe(403);
    const resumed = await client.post<{ data: { resumed_campaign_ids: number[] } }>(`/api/whatsapp/numbers/${number.id}/resume-sending`);
    expect(resumed.status, JSON.stringify(resumed.body)).toBe(200);
    expect(resumed.body.data.resumed_campaign_ids).toEqual([next.campaignId]);
    const nextDone = await waitForCampaign(client, next.campaignId, (c) => c.status === 'completed' && settled(c), { timeoutMs: 60_000 });
    expect(nextDone.counts.failed).toBe(0);
  });

  it('moves the template to PAUSED on 132015 and holds its campaign for it', { timeout: 90_000 }, async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 100 });
    const template = await buildTemplate(server, user, { body: BODY });
    const number = await sandboxNumber(client);
    simulator.setFault(number.phone_number_id, { code: 132015 });
    const accepted = await quickSend(client, { template, recipients: plainRecipients(20, 9_718_000_000), variables: VALUES });
    const held = await waitForCampaign(client, accepted.campaignId, (c) => c.status === 'paused' && c.counts.sending === 0, { timeoutMs: 60_000 });
    simulator.setFault(number.phone_number_id, null);
    expect(held.pauseReason).toBe('template_paused');
    expect(held.counts.failed).toBe(0);
    expect(held.counts.queued).toBe(20);
    const stored = (await server.db('templates').where({ id: template.id }).first('status')) as { status: string };
    expect(stored.status).toBe('PAUSED');
    expect((await client.post(`/api/campaigns/${accepted.campaignId}/cancel`)).status).toBe(200);
  });

  for (const [code, what] of [
    [132016, 'disabled by Meta'],
    [132001, 'missing at Meta'],
  ] as const) {
    it(`disables the template on ${code} (${what}), fails its campaign and refunds every message to the paisa`, { timeout: 90_000 }, async () => {
      const { client, user } = await signedInClient(server, { creditRupees: 100 });
      const template = await buildTemplate(server, user, { body: BODY });
      const number = await sandboxNumber(client);
      const start = await balance(user);
      simulator.setFault(number.phone_number_id, { code });
      const accepted = await quickSend(client, { template, recipients: plainRecipients(20, code === 132016 ? 9_719_000_000 : 9_720_000_000), variables: VALUES });
      expect(await balance(user)).toBeLessThan(start);
      const ended = await waitForCampaign(client, accepted.campaignId, (c) => c.status === 'failed' && settled(c), { timeoutMs: 60_000 });
      simulator.setFault(number.phone_number_id, null);
      expect(ended.counts.failed).toBe(20);
      const stored = (await server.db('templates').where({ id: template.id }).first('status')) as { status: string };
      expect(stored.status).toBe('DISABLED');
      // Nothing was delivered: every message's price came back, once.
      expect(await balance(user)).toBe(start);
    });
  }

  it('lets an admin tell the simulator a fault for a number over HTTP', async () => {
    const { client } = await signedInClient(server, { creditRupees: 10 });
    const number = await sandboxNumber(client);
    expect((await client.put(`/api/admin/simulator/numbers/${number.phone_number_id}/fault`, { code: 131026 })).status).toBe(403);
    expect((await admin.put(`/api/admin/simulator/numbers/${number.phone_number_id}/fault`, { code: 131026, is_transient: false, times: 1 })).status).toBe(200);
    expect((await admin.put(`/api/admin/simulator/numbers/${number.phone_number_id}/fault`, { expire_token: true })).status).toBe(200);
    expect((await admin.delete(`/api/admin/simulator/numbers/${number.phone_number_id}/fault`)).status).toBe(200);
  });
});
