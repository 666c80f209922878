/**
 * Scheduled sends: accepted, priced and debited at once, `scheduled` until due, then
 * queued and sent exactly once (also with two instances racing to start it); a new time or a
 * cancel before the start (cancel refunds everything); a template disabled meanwhile fails the
 * campaign with its reason and refunds it; the API's `scheduled_at` and the status it reads back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillMessage, messages } from '@shared/messages';
import type { TPublicMessage, TMessagesPage } from '@shared/schemas/messages';
import { SCHEDULE_MAX_DAYS, type TCampaign, type TCampaignAccepted, type TSenderNumber } from '@shared/schemas/sending';
import type { TCampaignList } from '@shared/schemas/reports';
import type { Template } from '../../server/src/models';
import { ScheduledCampaigns } from '../../server/src/sending/scheduledCampaigns';
import { formatIstTime } from '@shared/istTime';
import type { TestClient } from '../../server/test/client';
import { signedInClient } from '../../server/test/factories';
import { approvedTemplate, keyedClient, pollUntil } from '../../server/test/integrators';
import { campaignSettled, waitForCampaign } from '../../server/test/polling';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';

const MINUTE_MS = 60_000;
const UNITS_PER_RUPEE = 10_000;

describe.skipIf(postgresUnavailable)('scheduled sends', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ API_RATE_LIMIT_PER_15_MIN: '1000' });
  });
  afterAll(async () => {
    await server?.close();
  });

  const inMinutes = (minutes: number) => new Date(Date.now() + minutes * MINUTE_MS);
  const recipients = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `91${prefix}${String(i + 1).padStart(4, '0')}`);

  async function quickSend(client: TestClient, template: Template, to: string[], scheduledAt?: string) {
    const numbers = await client.get<{ data: TSenderNumber[] }>('/api/whatsapp/numbers');
    return client.post<{ message: string; data: TCampaignAccepted; code?: string; error?: string }>('/api/whatsapp/quick-send', {
      phone_number_id: numbers.body.data[0]!.phone_number_id,
      template_name: template.name,
      language: template.language,
      recipients_text: to.join('\n'),
      variables: { '1': 'Meera' },
      ...(scheduledAt === undefined ? {} : { scheduledAt }),
    });
  }

  /** The scheduled time moved into the past, as if it had come (the start itself is what is tested). */
  async function makeDue(campaignId: number): Promise<void> {
    await server.db('campaigns').where({ id: campaignId }).update({ scheduledAt: new Date(Date.now() - 1_000).toISOString() });
  }

  const sentTo = (to: readonly string[]) => {
    const wanted = new Set(to);
    return server.services.simulator!.receivedCounts().repeated.filter((entry) => wanted.has(entry.to));
  };

  it('accepts and debits at once, waits as scheduled, takes a new time, then sends each message once when due', async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 100 });
    const template = await approvedTemplate(server, user);
    const before = await server.services.wallet.balance(user.id);
    const to = recipients('98100', 5);
    const at = inMinutes(60);

    const accepted = await quickSend(client, template, to, at.toISOString());
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body.data).toMatchObject({ accepted: 5, scheduledAt: at.toISOString() });
    expect(accepted.body.message).toBe(fillMessage(messages.schedule.accepted, { count: '5', time: formatIstTime(at) }));
    const { campaignId, totalCost } = accepted.body.data;
    // The balance is reserved now: the debit is taken at acceptance.
    expect(await server.services.wallet.balance(user.id)).toBe(before - Math.round(totalCost * UNITS_PER_RUPEE));

    const waiting = (await client.get<{ data: TCampaign }>(`/api/campaigns/${campaignId}`)).body.data;
    expect(waiting).toMatchObject({ status: 'scheduled', scheduledAt: at.toISOString(), failureReason: null });
    expect(waiting.counts.queued).toBe(5);
    const listed = await client.get<{ data: TCampaignList }>('/api/campaigns?status=scheduled');
    expect(listed.body.data.campaigns.map((c) => c.id)).toContain(campaignId);

    // Not due: a look starts nothing, and nothing reaches the provider.
    expect((await server.services.scheduledCampaigns.startDue()).started).not.toContain(campaignId);
    expect(await server.db('messages').where({ campaignId }).whereNot({ status: 'queued' }).count({ n: '*' }).first()).toMatchObject({ n: 0 });

    const later = inMinutes(120);
    const moved = await client.patch<{ message: string; data: TCampaign }>(`/api/campaigns/${campaignId}/schedule`, { scheduledAt: later.toISOString() });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.message).toBe(fillMessage(messages.campaigns.rescheduled, { time: formatIstTime(later) }));
    expect(moved.body.data).toMatchObject({ status: 'scheduled', scheduledAt: later.toISOString() });

    await makeDue(campaignId);
    expect((await server.services.scheduledCampaigns.startDue()).started).toContain(campaignId);
    const done = await waitForCampaign(client, campaignId, campaignSettled, { timeoutMs: 30_000 });
    expect(done.counts.sent + done.counts.delivered + done.counts.read).toBe(5);
    expect(sentTo(to)).toEqual([]);
    // Started: a new time is refused, and so is a second start.
    const late = await client.patch<{ code: string; error: string }>(`/api/campaigns/${campaignId}/schedule`, { scheduledAt: inMinutes(30).toISOString() });
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ code: 'campaign_not_scheduled', error: messages.campaigns.cannotReschedule });
  });

  it('refuses a time under a minute ahead, past the limit, or not a time, and charges nothing', async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 10 });
    const template = await approvedTemplate(server, user);
    const before = await server.services.wallet.balance(user.id);
    const cases: [string, string][] = [
      [new Date(Date.now() + 20_000).toISOString(), messages.schedule.tooSoon],
      [inMinutes((SCHEDULE_MAX_DAYS + 1) * 24 * 60).toISOString(), fillMessage(messages.schedule.tooFar, { days: SCHEDULE_MAX_DAYS })],
      ['tomorrow at ten', messages.schedule.invalidTime],
    ];
    for (const [scheduledAt, error] of cases) {
      const refused = await quickSend(client, template, ['919810099001'], scheduledAt);
      expect(refused.status, scheduledAt).toBe(400);
      expect(refused.body.error).toBe(error);
    }
    expect(await server.services.wallet.balance(user.id)).toBe(before);
  });

  it('cancels before the start and refunds everything; the start then finds nothing to do', async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 100 });
    const template = await approvedTemplate(server, user);
    const before = await server.services.wallet.balance(user.id);
    const accepted = await quickSend(client, template, recipients('98101', 4), inMinutes(90).toISOString());
    expect(accepted.status).toBe(200);
    const { campaignId } = accepted.body.data;

    const cancelled = await client.post<{ message: string; data: TCampaign }>(`/api/campaigns/${campaignId}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.message).toBe(messages.campaigns.scheduledCancelled);
    expect(cancelled.body.data).toMatchObject({ status: 'cancelled', counts: { queued: 0, cancelled: 4 } });
    expect(cancelled.body.data.refunded).toBe(cancelled.body.data.totalCost);
    expect(await server.services.wallet.balance(user.id)).toBe(before);

    await makeDue(campaignId);
    expect((await server.services.scheduledCampaigns.startDue()).started).not.toContain(campaignId);
    expect((await client.get<{ data: TCampaign }>(`/api/campaigns/${campaignId}`)).body.data.status).toBe('cancelled');
  });

  it('fails a campaign whose template was disabled meanwhile, with the reason, and refunds it in full', async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 100 });
    const template = await approvedTemplate(server, user);
    const before = await server.services.wallet.balance(user.id);
    const accepted = await quickSend(client, template, recipients('98102', 3), inMinutes(45).toISOString());
    expect(accepted.status).toBe(200);
    const { campaignId } = accepted.body.data;
    await server.db('templates').where({ id: template.id }).update({ status: 'DISABLED' });

    await makeDue(campaignId);
    expect((await server.services.scheduledCampaigns.startDue()).failed).toContain(campaignId);
    const failed = (await client.get<{ data: TCampaign }>(`/api/campaigns/${campaignId}`)).body.data;
    expect(failed).toMatchObject({ status: 'failed', failureReason: fillMessage(messages.campaigns.templateUnavailableAtStart, { name: template.name }) });
    expect(failed.counts).toMatchObject({ queued: 0, failed: 3 });
    expect(failed.refunded).toBe(failed.totalCost);
    expect(await server.services.wallet.balance(user.id)).toBe(before);
    const rows = (await server.db('messages').where({ campaignId }).select('errorMessage', 'sentAt')) as { errorMessage: string; sentAt: string | null }[];
    expect(rows.every((row) => row.errorMessage === messages.campaigns.templateUnavailableError && row.sentAt === null)).toBe(true);
    // The owner is told, once.
    const told = await pollUntil(
      () => server.db('notifications').where({ userId: user.id, kind: 'campaign_failed' }).select('message'),
      (found) => found.length > 0,
    );
    expect(told).toHaveLength(1);
  });

  it('starts a due campaign exactly once when two instances look at the same moment', async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 100 });
    const template = await approvedTemplate(server, user);
    const to = recipients('98103', 20);
    const accepted = await quickSend(client, template, to, inMinutes(30).toISOString());
    expect(accepted.status).toBe(200);
    const { campaignId } = accepted.body.data;
    await makeDue(campaignId);

    const lookers = [server.services.scheduledCampaigns, new ScheduledCampaigns({ db: server.db, acceptance: server.services.campaignAcceptance, outcomes: server.services.engine.outcomes, log: server.logger, onStarted: () => server.services.engine.notifyAccepted() })];
    const looks = await Promise.all(lookers.map((looker) => looker.startDue()));
    expect(looks.filter((look) => look.started.includes(campaignId))).toHaveLength(1);
    const done = await waitForCampaign(client, campaignId, campaignSettled, { timeoutMs: 30_000 });
    expect(done.counts.sent + done.counts.delivered + done.counts.read).toBe(20);
    // The provider took each recipient's message once (a rate-limited attempt it refused is not a send).
    expect(sentTo(to)).toEqual([]);
  });

  describe('the API', () => {
    it('takes scheduled_at on /api/send, answers and reads back `scheduled`, and the live starter sends it when due', async () => {
      const { client, user } = await signedInClient(server, { creditRupees: 10 });
      const template = await approvedTemplate(server, user);
      const { api } = await keyedClient(server, client);
      // Any future time is taken from the API; a few seconds ahead lets the server's own starter (every 5 s) send it.
      const at = new Date(Date.now() + 3_000);
      const sent = await api.post<{ message_id: string; status: string; scheduled_at: string; message: string; charged: boolean }>('/api/send', {
        username: user.username,
        templatename: template.name,
        recipient_number: '919810400001',
        var1: 'Asha',
        scheduled_at: at.toISOString(),
      });
      expect(sent.status, JSON.stringify(sent.body)).toBe(200);
      expect(sent.body).toMatchObject({ status: 'scheduled', scheduled_at: at.toISOString(), charged: true, message: fillMessage(messages.publicApi.scheduled, { time: formatIstTime(at) }) });

      const read = await api.get<TPublicMessage>(`/api/messages/${sent.body.message_id}`);
      if (read.body.status === 'scheduled') expect(read.body.scheduled_at).toBe(at.toISOString());
      else expect(['queued', 'sending', 'sent', 'delivered', 'read']).toContain(read.body.status);

      const delivered = await pollUntil(
        () => api.get<TPublicMessage>(`/api/messages/${sent.body.message_id}`),
        (res) => res.body.status === 'delivered' || res.body.status === 'read',
        30_000,
      );
      expect(delivered.body.scheduled_at).toBe(at.toISOString());
    });

    it('lists scheduled messages by status, takes scheduled_at on /api/send/batch, and refuses a past time', async () => {
      const { client, user } = await signedInClient(server, { creditRupees: 10 });
      const template = await approvedTemplate(server, user);
      const { api } = await keyedClient(server, client);
      const at = inMinutes(240);
      const batch = await api.post<{ message: string; data: TCampaignAccepted }>('/api/send/batch', {
        username: user.username,
        templatename: template.name,
        messages: [
          { recipient_number: '919810400002', var1: 'A' },
          { recipient_number: '919810400003', var1: 'B' },
        ],
        scheduled_at: at.toISOString(),
      });
      expect(batch.status, JSON.stringify(batch.body)).toBe(200);
      expect(batch.body.data).toMatchObject({ accepted: 2, scheduledAt: at.toISOString() });
      expect(batch.body.message).toBe(fillMessage(messages.schedule.accepted, { count: '2', time: formatIstTime(at) }));

      const scheduled = await api.get<TMessagesPage>(`/api/messages?campaign_id=${batch.body.data.campaignId}&status=scheduled`);
      expect(scheduled.status).toBe(200);
      expect(scheduled.body.data.map((m) => m.status)).toEqual(['scheduled', 'scheduled']);
      const queued = await api.get<TMessagesPage>(`/api/messages?campaign_id=${batch.body.data.campaignId}&status=queued`);
      expect(queued.body.data).toEqual([]);

      const past = await api.post<{ error: string; field: string }>('/api/send', {
        username: user.username,
        templatename: template.name,
        recipient_number: '919810400004',
        var1: 'C',
        scheduled_at: new Date(Date.now() - MINUTE_MS).toISOString(),
      });
      expect(past.status).toBe(400);
      expect(past.body).toMatchObject({ error: messages.schedule.notInFuture, field: 'scheduled_at' });
    });
  });
});
