/**
 * Notifications posted where things happen: a campaign that ends failed, one that
 * stalls, a low balance after public API sends, and live campaign progress on the stream.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillMessage, messages } from '@shared/messages';
import type { TNotification, TNotificationList } from '@shared/schemas/notifications';
import type { TCampaign, TCampaignAccepted, TSenderNumber } from '@shared/schemas/sending';
import type { Template, User } from '../../server/src/models';
import { CampaignStallWatch } from '../../server/src/notifications/campaignStallWatch';
import type { ProviderRegistry } from '../../server/src/sending/providerRegistry';
import type { TestClient } from '../../server/test/client';
import { signedInClient, waitForTemplateStatus } from '../../server/test/factories';
import { plainRecipients } from '../../server/test/campaignFlow';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';

const text = messages.notifications;

async function notificationsOf(client: TestClient, kind: string): Promise<TNotification[]> {
  return (await client.get<TNotificationList>('/api/notifications')).body.notifications.filter((n) => n.kind === kind);
}

async function approvedTemplate(server: TestServer, user: User): Promise<Template> {
  const template = await server.services.templates.create(
    user,
    { name: `events_${Date.now()}_${Math.floor(Math.random() * 1e6)}`, category: 'MARKETING', language: 'en_US', headerType: 'none', headerText: '', bodyText: 'Hi {{1}}', footerText: '', buttons: [], variableExamples: {}, submit_to_whatsapp: true },
    undefined,
  );
  const adminRow = (await server.db('users').where({ role: 'admin' }).first('id')) as { id: number };
  const admin = (await server.services.users.findById(adminRow.id))!;
  await server.services.templates.review(admin, template.id, { status: 'APPROVED' }, null);
  // Our approval sends it to Meta (the simulator here), whose review approves it by webhook.
  return waitForTemplateStatus(server, template.id, 'APPROVED');
}

async function quickSend(client: TestClient, template: Template, recipients: string[]): Promise<TCampaignAccepted> {
  const numbers = await client.get<{ data: TSenderNumber[] }>('/api/whatsapp/numbers');
  const sent = await client.post<{ data: TCampaignAccepted }>('/api/whatsapp/quick-send', {
    phone_number_id: numbers.body.data[0]!.phone_number_id,
    template_name: template.name,
    language: 'en_US',
    recipients_text: recipients.join('\n'),
    variables: { '1': 'Asha' },
  });
  expect(sent.status).toBe(200);
  return sent.body.data;
}

/**
 * Reads `campaign_progress` events from a stream until one satisfies `done` or the deadline
 * passes; answers every progress event read.
 */
async function readProgress(response: Response, done: (campaign: TCampaign) => boolean, timeoutMs = 20_000): Promise<TCampaign[]> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const found: TCampaign[] = [];
  let buffer = '';
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no finishing progress event in time; got ${JSON.stringify(found.map((c) => [c.id, c.status, c.processed]))}`);
      let timer: NodeJS.Timeout | undefined;
      const chunk = await Promise.race([
        reader.read(),
        new Promise<'deadline'>((resolve) => {
          timer = setTimeout(() => resolve('deadline'), left);
        }),
      ]);
      clearTimeout(timer);
      if (chunk === 'deadline') continue;
      if (chunk.done) throw new Error('stream ended');
      buffer += decoder.decode(chunk.value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (!block.split('\n').includes('event: campaign_progress')) continue;
        // Progress is not a kept notification: no id line, so Last-Event-ID stays the notifications'.
        expect(block.split('\n').some((line) => line.startsWith('id:'))).toBe(false);
        const data = block.split('\n').find((line) => line.startsWith('data: '));
        const campaign = JSON.parse(data!.slice(6)) as TCampaign;
        found.push(campaign);
        if (done(campaign)) return found;
      }
    }
  } finally {
    await reader.cancel();
  }
}

describe.skipIf(postgresUnavailable)('notifications posted by sending', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('tells the owner a campaign failed when none of its messages could go out (no provider for its number), with the reason and refund, once', async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 500 });
    const template = await approvedTemplate(server, user);
    const registry: ProviderRegistry = server.services.engine.providers;
    const providerFor = registry.providerFor.bind(registry);
    registry.providerFor = () => null;
    let accepted: TCampaignAccepted;
    try {
      accepted = await quickSend(client, template, plainRecipients(2, 9_200_000_000));
      await expect.poll(async () => (await client.get<{ data: TCampaign }>(`/api/campaigns/${accepted.campaignId}`)).body.data.status, { timeout: 20_000 }).toBe('completed');
    } finally {
      registry.providerFor = providerFor;
    }
    const campaign = (await client.get<{ data: TCampaign }>(`/api/campaigns/${accepted.campaignId}`)).body.data;
    expect(campaign.counts.failed).toBe(2);
    await expect.poll(async () => (await notificationsOf(client, 'campaign_failed')).length, { timeout: 10_000 }).toBe(1);
    const failed = (await notificationsOf(client, 'campaign_failed'))[0]!;
    expect(failed).toMatchObject({ type: 'error', title: text.campaignFailedTitle });
    expect(failed.message).toBe(
      fillMessage(text.campaignFailed, {
        name: campaign.name,
        reason: fillMessage(text.campaignAllFailed, { count: '2', error: 'No WhatsApp provider can send for this number', refund: `₹${campaign.refunded.toFixed(2)}` }),
      }),
    );
    expect(campaign.refunded).toBeGreaterThan(0);
    // Told as failed, not also as completed; settling again changes nothing.
    await server.services.notifications.campaignsSettled([accepted!.campaignId]);
    expect(await notificationsOf(client, 'campaign_completed')).toHaveLength(0);
    expect(await notificationsOf(client, 'campaign_failed')).toHaveLength(1);
  });

  it('streams campaign_progress events for the user\'s own campaign while it sends, ending with its final counts, without storing them', async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 500 });
    const { client: other, user: otherUser } = await signedInClient(server, { creditRupees: 500 });
    const template = await approvedTemplate(server, user);
    const cookie = `sandesh_session=${client.cookie('sandesh_session')}`;
    const otherCookie = `sandesh_session=${other.cookie('sandesh_session')}`;
    const mine = await fetch(`${server.url}/api/notifications/stream`, { headers: { Cookie: cookie } });
    const theirs = await fetch(`${server.url}/api/notifications/stream`, { headers: { Cookie: otherCookie } });
    expect(mine.status).toBe(200);

    const recipients = plainRecipients(40, 9_300_000_000);
    const accepted = await quickSend(client, template, recipients);
    const events = await readProgress(mine, (c) => c.id === accepted.campaignId && c.status === 'completed' && c.processed === recipients.length);
    const last = events.at(-1)!;
    expect(last).toMatchObject({ id: accepted.campaignId, status: 'completed', billable: recipients.length, processed: recipients.length });
    expect(last.counts.queued + last.counts.sending + last.counts.unknown).toBe(0);
    // The event is the campaign as its own route answers it.
    const direct = (await client.get<{ data: TCampaign }>(`/api/campaigns/${accepted.campaignId}`)).body.data;
    expect(Object.keys(last).sort()).toEqual(Object.keys(direct).sort());
    // Counts only move forward along the events.
    for (let i = 1; i < events.length; i++) expect(events[i]!.processed).toBeGreaterThanOrEqual(events[i - 1]!.processed);

    // Another user's stream hears nothing of it: a fresh send of theirs is the first progress it reads.
    const otherTemplate = await approvedTemplate(server, otherUser);
    const otherAccepted = await quickSend(other, otherTemplate, plainRecipients(2, 9_400_000_000));
    const theirEvents = await readProgress(theirs, (c) => c.id === otherAccepted.campaignId && c.status === 'completed');
    expect(theirEvents.every((c) => c.id === otherAccepted.campaignId)).toBe(true);

    // Progress is pushed, not kept: the bell holds no progress rows (only the template's approval by Meta and the campaign's end).
    const kinds = (await client.get<TNotificationList>('/api/notifications')).body.notifications.map((n) => n.kind);
    expect(kinds.filter((kind) => kind !== 'campaign_completed' && kind !== 'low_balance' && kind !== 'template_approved')).toEqual([]);

    // A tab connecting while a finished campaign is still followed gets its state at once.
    const late = await fetch(`${server.url}/api/notifications/stream`, { headers: { Cookie: cookie } });
    const caughtUp = await readProgress(late, (c) => c.id === accepted.campaignId);
    expect(caughtUp.at(-1)).toMatchObject({ id: accepted.campaignId, status: 'completed', processed: recipients.length });
  });

  it('checks the balance after public API sends: one low-balance alert for a burst of single sends, and after a batch', async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 5 });
    const template = await approvedTemplate(server, user);
    const created = await client.post<{ data: { key: string } }>('/api/keys', { name: 'integration' });
    const key = created.body.data.key;
    const sendApi = (path: string, body: unknown) =>
      fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: JSON.stringify(body) });
    const answers = await Promise.all(
      plainRecipients(4, 9_500_000_000).map((to) => sendApi('/api/send', { username: user.username, templatename: template.name, recipient_number: to, var1: 'Joy' })),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    await expect.poll(async () => (await notificationsOf(client, 'low_balance')).length, { timeout: 10_000 }).toBe(1);
    const alert = (await notificationsOf(client, 'low_balance'))[0]!;
    expect(alert.message).toContain('below your alert threshold of ₹100.00');

    // The batch call too, for another user.
    const second = await signedInClient(server, { creditRupees: 5 });
    const secondTemplate = await approvedTemplate(server, second.user);
    const secondKey = (await second.client.post<{ data: { key: string } }>('/api/keys', { name: 'integration' })).body.data.key;
    const batch = await fetch(`${server.url}/api/send/batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${secondKey}` },
      body: JSON.stringify({ username: second.user.username, templatename: secondTemplate.name, messages: plainRecipients(2, 9_600_000_000).map((to) => ({ recipient_number: to, var1: 'Joy' })) }),
    });
    expect(batch.status).toBe(200);
    await expect.poll(async () => (await notificationsOf(second.client, 'low_balance')).length, { timeout: 10_000 }).toBe(1);
    // Still one a day for the first user, however many sends follow.
    expect((await sendApi('/api/send', { username: user.username, templatename: template.name, recipient_number: plainRecipients(1, 9_700_000_000)[0], var1: 'Joy' })).status).toBe(200);
    await server.services.notifications.lowBalanceCheck(user.id);
    expect(await notificationsOf(client, 'low_balance')).toHaveLength(1);
  });

  it("reads no balance after a spend whose own write answered a balance at or above the threshold, and alerts on one below it", async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 5 });
    const balanceReads: string[] = [];
    const record = (query: { sql: string }) => {
      if (/^select .*credit_balance.* from .?users\b/i.test(query.sql)) balanceReads.push(query.sql);
    };
    server.db.on('query', record);
    try {
      // The default threshold is ₹100 (1,000,000 units); the user's own one where set.
      server.services.notifications.lowBalanceAfterSpend(user.id, { balanceUnits: 1_000_000, lowBalanceThresholdUnits: null });
      server.services.notifications.lowBalanceAfterSpend(user.id, { balanceUnits: 40_000, lowBalanceThresholdUnits: 30_000 });
      server.services.notifications.lowBalanceAfterSpend(user.id, { balanceUnits: 40_000, lowBalanceThresholdUnits: 0 });
      expect(balanceReads).toEqual([]);
      // Below: the check runs as before (its own read, the day's claim, the alert).
      server.services.notifications.lowBalanceAfterSpend(user.id, { balanceUnits: 50_000, lowBalanceThresholdUnits: null });
      await expect.poll(async () => (await notificationsOf(client, 'low_balance')).length, { timeout: 10_000 }).toBe(1);
      expect(balanceReads).toHaveLength(1);
    } finally {
      server.db.off('query', record);
    }
  });
});

describe.skipIf(postgresUnavailable)('a campaign that stalls', () => {
  let server: TestServer;

  beforeAll(async () => {
    // No dispatcher on this instance: an accepted campaign waits, as behind a stopped one.
    server = await startTestServer({ DISPATCH_ENABLED: 'false' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('warns the owner once when a running campaign sends nothing for the configured time, and not one that moves or is paused', async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 500 });
    // A template each, so the campaigns' names tell them apart.
    const stuck = await quickSend(client, await approvedTemplate(server, user), plainRecipients(3, 9_800_000_000));
    const moving = await quickSend(client, await approvedTemplate(server, user), plainRecipients(3, 9_810_000_000));
    const paused = await quickSend(client, await approvedTemplate(server, user), plainRecipients(3, 9_820_000_000));
    const nameOf = async (id: number) => (await client.get<{ data: TCampaign }>(`/api/campaigns/${id}`)).body.data.name;
    expect((await client.post(`/api/campaigns/${paused.campaignId}/pause`)).status).toBe(200);

    let clock = Date.parse('2026-11-25T10:00:00Z');
    const minute = 60_000;
    const watch = new CampaignStallWatch({
      db: server.db,
      log: server.logger,
      stallAfterMs: 15 * minute,
      checkEveryMs: minute,
      onStalled: (campaign) => server.services.notifications.campaignStalled(campaign.userId, campaign),
      now: () => clock,
    });
    expect(await watch.check()).toEqual([]);
    clock += 10 * minute;
    watch.noteProgress([moving.campaignId]);
    expect(await watch.check()).toEqual([]);
    clock += 6 * minute;
    // 16 minutes without progress for the stuck one; the moving one moved 6 minutes ago.
    const stalled = await watch.check();
    expect(stalled.map((c) => c.id)).toEqual([stuck.campaignId]);
    expect(stalled[0]).toMatchObject({ userId: user.id, waiting: 3, stalledMs: 16 * minute });
    await expect.poll(async () => (await notificationsOf(client, 'campaign_stalled')).length).toBe(1);
    const warning = (await notificationsOf(client, 'campaign_stalled'))[0]!;
    const name = await nameOf(stuck.campaignId);
    expect(warning).toMatchObject({ type: 'warning', title: text.campaignStalledTitle, message: fillMessage(text.campaignStalled, { name, minutes: '16', waiting: '3' }) });

    // Later looks (here or on another instance) warn of the stuck one no more; the other has stalled since.
    clock += 30 * minute;
    expect((await watch.check()).map((c) => c.id).sort()).toEqual([moving.campaignId, stuck.campaignId].sort());
    await server.services.notifications.campaignStalled(user.id, { id: stuck.campaignId, name, waiting: 3, stalledMs: 46 * minute });
    await expect.poll(async () => (await notificationsOf(client, 'campaign_stalled')).length).toBe(2);
    const warned = (await notificationsOf(client, 'campaign_stalled')).map((n) => n.message);
    expect(warned.filter((message) => message.startsWith(`${name} `))).toHaveLength(1);
    const movingName = await nameOf(moving.campaignId);
    expect(warned.filter((message) => message.startsWith(`${movingName} `))).toHaveLength(1);
    // The paused campaign was never a candidate.
    const pausedName = await nameOf(paused.campaignId);
    expect(warned.some((message) => message.startsWith(`${pausedName} `))).toBe(false);
  });
});
