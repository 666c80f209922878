/**
 * The public API's single sends (`POST /api/send`) collect into one campaign per API key, template
 * (and sender number) and Indian day, instead of one campaign and one "completed" notice per call:
 * five calls made five "API - order_update" campaigns and five notices. Both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TCampaign } from '@shared/schemas/sending';
import type { TNotificationList } from '@shared/schemas/notifications';
import type { TestClient } from '../../server/test/client';
import { ManualClock } from '../../server/test/clock';
import { signedInClient } from '../../server/test/factories';
import { approvedTemplate, keyedClient } from '../../server/test/integrators';
import { pollUntil } from '../../server/test/polling';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';
import { istDay } from '../../server/src/istCalendar';

type SendAnswer = { success: boolean; message_id: string; campaign_id: number; status: string };

interface CampaignFigures {
  name: string;
  status: string;
  totalRecipients: number | string;
  billableCount: number | string;
  totalCostUnits: number | string;
  priceUnits: number | string;
}

describe.skipIf(postgresUnavailable)('the public API\'s day campaigns', () => {
  let server: TestServer;
  // Noon in India: moving a day on stays clear of midnight.
  const clock = new ManualClock(new Date('2026-12-07T06:30:00Z'));
  beforeAll(async () => {
    server = await startTestServer({ API_RATE_LIMIT_PER_15_MIN: '1000' }, { apiClock: clock.now });
  });
  afterAll(async () => {
    await server?.close();
  });

  let sequence = 0;
  const nextNumber = () => `9198222${String(++sequence).padStart(5, '0')}`;

  async function integrator(creditRupees = 20) {
    const { client, user } = await signedInClient(server, { creditRupees });
    const template = await approvedTemplate(server, user);
    const { api } = await keyedClient(server, client);
    return { client, api, user, template: template.name };
  }

  const send = async (api: TestClient, username: string, templatename: string) => {
    const answer = await api.post<SendAnswer>('/api/send', { username, templatename, recipient_number: nextNumber(), var1: 'A' });
    expect(answer.status).toBe(200);
    return answer.body;
  };
  const figures = async (campaignId: number) => (await server.db('campaigns').where({ id: campaignId }).first('name', 'status', 'totalRecipients', 'billableCount', 'totalCostUnits', 'priceUnits')) as CampaignFigures;
  const messagesOf = async (campaignId: number) => (await server.db('messages').where({ campaignId }).pluck('status')) as string[];
  const campaignNotices = async (client: TestClient) =>
    (await client.get<TNotificationList>('/api/notifications')).body.notifications.filter((n) => n.kind === 'campaign_completed' || n.kind === 'campaign_failed');

  it('collects five calls with one key and template into one campaign of five messages, charged per call, with no completion notice', async () => {
    const who = await integrator();
    const before = await server.services.wallet.balance(who.user.id);
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await send(who.api, who.user.username, who.template));
    const campaignId = answers[0]!.campaign_id;
    expect(answers.map((answer) => answer.campaign_id)).toEqual(Array(5).fill(campaignId));
    expect(new Set(answers.map((answer) => answer.message_id)).size).toBe(5);

    const campaign = await figures(campaignId);
    expect(campaign.name).toBe(`API - ${who.template} - ${istDay(clock.now())}`);
    expect(Number(campaign.totalRecipients)).toBe(5);
    expect(Number(campaign.billableCount)).toBe(5);
    expect(Number(campaign.totalCostUnits)).toBe(5 * Number(campaign.priceUnits));
    expect(before - (await server.services.wallet.balance(who.user.id))).toBe(5 * Number(campaign.priceUnits));
    expect(await messagesOf(campaignId)).toHaveLength(5);

    // Its messages go out and it completes; the owner is not told (nor after a check again).
    await pollUntil(async () => (await who.client.get<{ data: TCampaign }>(`/api/campaigns/${campaignId}`)).body.data.status, (status) => status === 'completed', { what: 'the day campaign to complete', timeoutMs: 30_000 });
    await server.services.notifications.campaignsSettled([campaignId]);
    expect(await campaignNotices(who.client)).toEqual([]);

    // A later call the same day joins it again, and it runs until that message too has gone out.
    const later = await send(who.api, who.user.username, who.template);
    expect(later.campaign_id).toBe(campaignId);
    await pollUntil(
      async () => ({ status: (await figures(campaignId)).status, open: (await messagesOf(campaignId)).filter((status) => ['queued', 'sending', 'unknown'].includes(status)).length }),
      (state) => state.status === 'completed' && state.open === 0,
      { what: 'the sixth message to go out', timeoutMs: 30_000 },
    );
    expect(Number((await figures(campaignId)).totalRecipients)).toBe(6);
    expect(await messagesOf(campaignId)).toHaveLength(6);
    await server.services.notifications.campaignsSettled([campaignId]);
    expect(await campaignNotices(who.client)).toEqual([]);
  }, 90_000);

  it("tells the integrator's webhook of each completion of the day campaign, not only the first", async () => {
    const who = await integrator();
    // A public address literal: saved without a lookup; its deliveries are not what this reads.
    const endpoint = await who.api.post('/api/webhook-endpoints', { url: 'https://93.184.216.34/hooks/sandesh', events: ['campaign.completed'] });
    expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
    const endpointId = (endpoint.body as { id: number }).id;
    const completions = async (campaignId: number) =>
      ((await server.db('webhook_deliveries').where({ endpointId, eventType: 'campaign.completed' }).pluck('body')) as string[]).filter((body) => body.includes(`"campaign_id":${campaignId}`)).length;
    const first = await send(who.api, who.user.username, who.template);
    await pollUntil(() => completions(first.campaign_id), (count) => count === 1, { what: 'the first completion announced', timeoutMs: 30_000 });
    const later = await send(who.api, who.user.username, who.template);
    expect(later.campaign_id).toBe(first.campaign_id);
    await pollUntil(() => completions(first.campaign_id), (count) => count === 2, { what: 'the second completion announced', timeoutMs: 30_000 });
  }, 90_000);

  it('opens another campaign for another key, another template, or the next Indian day', async () => {
    const who = await integrator();
    const otherTemplate = (await approvedTemplate(server, who.user)).name;
    const { api: otherKey } = await keyedClient(server, who.client);

    const first = await send(who.api, who.user.username, who.template);
    const byOtherKey = await send(otherKey, who.user.username, who.template);
    const byOtherTemplate = await send(who.api, who.user.username, otherTemplate);
    clock.advance(24 * 3_600_000);
    const nextDay = await send(who.api, who.user.username, who.template);
    const nextDayAgain = await send(who.api, who.user.username, who.template);

    const ids = [first, byOtherKey, byOtherTemplate, nextDay].map((answer) => answer.campaign_id);
    expect(new Set(ids).size).toBe(4);
    expect(nextDayAgain.campaign_id).toBe(nextDay.campaign_id);
    expect((await figures(nextDay.campaign_id)).name).toBe(`API - ${who.template} - ${istDay(clock.now())}`);
  }, 60_000);

  it('makes one campaign of concurrent first calls', async () => {
    const who = await integrator();
    const answers = await Promise.all(Array.from({ length: 4 }, () => send(who.api, who.user.username, who.template)));
    expect(new Set(answers.map((answer) => answer.campaign_id)).size).toBe(1);
    expect(await messagesOf(answers[0]!.campaign_id)).toHaveLength(4);

    // Two instances with nothing remembered open the day's campaign at once: the unique index
    // leaves one campaign, and both answer it.
    const another = await integrator();
    const template = (await server.db('templates').where({ userId: another.user.id }).first('*')) as { id: number };
    const key = (await server.db('api_keys').where({ userId: another.user.id }).first('id')) as { id: number };
    const number = await server.services.senderNumbers.ensureSandbox(another.user.id);
    const full = await server.services.templates.findUsable(another.user.id, another.template, undefined);
    expect(full.id).toBe(template.id);
    const open = () => server.services.campaignAcceptance.openApiDayCampaign({ user: another.user, template: full, senderNumberId: number.id, apiKeyId: key.id, day: '2026-12-25' });
    const opened = await Promise.all([open(), open(), open()]);
    expect(new Set(opened).size).toBe(1);
    const rows = (await server.db('campaigns').where({ userId: another.user.id, apiDay: '2026-12-25' }).count({ n: '*' })) as { n: number | string }[];
    expect(Number(rows[0]!.n)).toBe(1);
  }, 60_000);

  it('opens a new campaign once the day\'s was cancelled, and leaves the cancelled one as it was', async () => {
    const who = await integrator();
    const first = await send(who.api, who.user.username, who.template);
    await pollUntil(async () => (await figures(first.campaign_id)).status, (status) => status === 'completed', { what: 'the day campaign to complete', timeoutMs: 30_000 });
    // A paused campaign can be cancelled (a completed one cannot): the day's stops taking sends.
    await server.db('campaigns').where({ id: first.campaign_id }).update({ status: 'paused' });
    expect((await who.client.post(`/api/campaigns/${first.campaign_id}/cancel`)).status).toBe(200);

    const next = await send(who.api, who.user.username, who.template);
    expect(next.campaign_id).not.toBe(first.campaign_id);
    expect(Number((await figures(first.campaign_id)).totalRecipients)).toBe(1);
    expect(await messagesOf(first.campaign_id)).toHaveLength(1);
    expect(await messagesOf(next.campaign_id)).toHaveLength(1);
  }, 60_000);

  it('holds the sends that join a paused day campaign until it is resumed, then sends them', async () => {
    const who = await integrator();
    const first = await send(who.api, who.user.username, who.template);
    await pollUntil(async () => (await figures(first.campaign_id)).status, (status) => status === 'completed', { what: 'the day campaign to complete', timeoutMs: 30_000 });
    // Paused while it ran (it completes too fast to catch running here).
    await server.db('campaigns').where({ id: first.campaign_id }).update({ status: 'paused', completedAt: null });
    const held = await send(who.api, who.user.username, who.template);
    expect(held.campaign_id).toBe(first.campaign_id);
    expect((await figures(first.campaign_id)).status).toBe('paused');
    // A dispatcher may claim it before it reads the campaign's state; it then puts it back, unsent.
    const heldRow = async () => (await server.db('messages').where({ id: Number(held.message_id.slice(4)) }).first('status', 'handedAt')) as { status: string; handedAt: string | null };
    expect(await pollUntil(heldRow, (row) => row.status === 'queued', { what: 'the held send to wait in the queue', timeoutMs: 30_000 })).toEqual({ status: 'queued', handedAt: null });

    expect((await who.client.post(`/api/campaigns/${first.campaign_id}/resume`)).status).toBe(200);
    await pollUntil(async () => (await figures(first.campaign_id)).status, (status) => status === 'completed', { what: 'the held send to go out', timeoutMs: 30_000 });
    expect((await messagesOf(first.campaign_id)).filter((status) => status === 'queued')).toEqual([]);
  }, 60_000);
});
