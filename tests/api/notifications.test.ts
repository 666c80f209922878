/**
 * Notifications kept per user: the list, mark read, clear, the low-balance threshold,
 * real events posted where they happen, and the Server-Sent Events stream.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillMessage, messages } from '@shared/messages';
import type { TNotification, TNotificationList } from '@shared/schemas/notifications';
import type { TCampaign, TCampaignAccepted, TSenderNumber } from '@shared/schemas/sending';
import type { User } from '../../server/src/models';
import { TestClient } from '../../server/test/client';
import { buildTemplate, signedInClient, uniqueName } from '../../server/test/factories';
import { postgresUnavailable, startTestServer, TEST_ADMIN, type TestServer } from '../../server/test/server';

const text = messages.notifications;

/** Reads Server-Sent Events from a response body until `count` notifications arrived. */
async function readEvents(response: Response, count: number, timeoutMs = 15_000): Promise<TNotification[]> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const found: TNotification[] = [];
  let buffer = '';
  const deadline = Date.now() + timeoutMs;
  while (found.length < count) {
    if (Date.now() > deadline) throw new Error(`only ${found.length} events arrived: ${buffer}`);
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = block.split('\n').find((line) => line.startsWith('data: '));
      if (block.includes('event: notification') && data) found.push(JSON.parse(data.slice(6)) as TNotification);
    }
  }
  await reader.cancel();
  return found;
}

describe.skipIf(postgresUnavailable)('notifications', () => {
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

  const list = async (client: TestClient) => (await client.get<TNotificationList>('/api/notifications')).body;

  it('needs a session', async () => {
    expect((await new TestClient(server.url).get('/api/notifications')).status).toBe(401);
    expect((await new TestClient(server.url).get('/api/notifications/stream')).status).toBe(401);
  });

  it('keeps each user\'s own notifications: newest first, marked read one by one or all, cleared', async () => {
    const { client, user } = await signedInClient(server);
    const { client: other } = await signedInClient(server);
    for (const message of ['first', 'second', 'third']) await server.services.notifications.post(user.id, { type: 'info', kind: 'test', title: 'T', message });
    const listed = await list(client);
    expect(listed.notifications.map((n) => n.message)).toEqual(['third', 'second', 'first']);
    expect(listed.unreadCount).toBe(3);
    expect((await list(other)).notifications).toHaveLength(0);

    const read = await client.post<{ unreadCount: number }>('/api/notifications/read', { ids: [listed.notifications[0]!.id] });
    expect(read.body.unreadCount).toBe(2);
    // Another user's ids change nothing.
    await other.post('/api/notifications/read', { ids: listed.notifications.map((n) => n.id) });
    expect((await list(client)).unreadCount).toBe(2);
    expect((await client.post<{ unreadCount: number }>('/api/notifications/read', {})).body.unreadCount).toBe(0);

    expect((await client.delete(`/api/notifications/${listed.notifications[1]!.id}`)).status).toBe(200);
    expect((await list(client)).notifications.map((n) => n.message)).toEqual(['third', 'first']);
    await client.delete('/api/notifications');
    expect((await list(client)).notifications).toHaveLength(0);
  });

  it('tells a user when an API key is created and deleted, and a template approved or rejected with the reason; admins hear of templates waiting', async () => {
    const { client, user } = await signedInClient(server);
    const created = await client.post<{ data: { id: number; prefix: string } }>('/api/keys', { name: 'ERP' });
    expect(created.status).toBe(201);
    await client.delete(`/api/keys/${created.body.data.id}`);

    const make = async (name: string) =>
      server.services.templates.create(user, { name, category: 'MARKETING', language: 'en_US', headerType: 'none', headerText: '', bodyText: 'Hello {{1}}', footerText: '', buttons: [], variableExamples: {}, submit_to_whatsapp: false }, undefined);
    const good = await make(`good_${Date.now()}`);
    const bad = await make(`bad_${Date.now()}`);
    expect((await client.post(`/api/templates/${good.id}/submit`)).status).toBe(200);
    expect((await client.post(`/api/templates/${bad.id}/submit`)).status).toBe(200);
    expect((await admin.put(`/api/admin/templates/${good.id}/status`, { status: 'APPROVED' })).status).toBe(200);
    expect((await admin.put(`/api/admin/templates/${bad.id}/status`, { status: 'REJECTED', reason: 'Body is promotional' })).status).toBe(200);

    await expect.poll(async () => (await list(client)).notifications.map((n) => n.kind).sort()).toEqual(['api_key_created', 'api_key_deleted', 'template_approved', 'template_rejected']);
    const mine = (await list(client)).notifications;
    expect(mine.find((n) => n.kind === 'template_rejected')!.message).toBe(fillMessage(text.templateRejected, { name: bad.name, reason: 'Body is promotional' }));
    expect(mine.find((n) => n.kind === 'api_key_created')!.message).toContain(created.body.data.prefix);
    await expect.poll(async () => (await list(admin)).notifications.filter((n) => n.kind === 'template_review' && n.message.includes(good.name))).toHaveLength(1);
  });

  const approvedTemplate = (user: User) => buildTemplate(server, user, { name: uniqueName('note'), body: 'Hi {{1}}' });

  it('tells the sender a campaign completed with its counts and refund, once, and warns of a low balance once a day', async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 3 });
    const template = await approvedTemplate(user);
    expect((await client.get<{ thresholdRupees: number }>('/api/notifications/low-balance')).body.thresholdRupees).toBe(100);
    const numbers = await client.get<{ data: TSenderNumber[] }>('/api/whatsapp/numbers');
    const sent = await client.post<{ data: TCampaignAccepted }>('/api/whatsapp/quick-send', {
      phone_number_id: numbers.body.data[0]!.phone_number_id,
      template_name: template.name,
      language: 'en_US',
      recipients_text: ['919870600010', '919870600000'].join('\n'),
      variables: { '1': 'Asha' },
    });
    expect(sent.status).toBe(200);
    await expect
      .poll(async () => (await client.get<{ data: TCampaign }>(`/api/campaigns/${sent.body.data.campaignId}`)).body.data.status, { timeout: 30_000 })
      .toBe('completed');
    await expect.poll(async () => (await list(client)).notifications.filter((n) => n.kind === 'campaign_completed'), { timeout: 10_000 }).toHaveLength(1);
    const done = (await list(client)).notifications.find((n) => n.kind === 'campaign_completed')!;
    // Counts as they stand when read (the failure of …0000 may still be on its way).
    expect(done.message).toMatch(/^Quick Send - note_.*: \d+ delivered, \d+ read, \d+ failed\. Refunded ₹\d+\.\d\d\.$/);
    // Completion is checked again on later statuses: still one notification.
    await server.services.notifications.campaignsSettled([sent.body.data.campaignId]);
    expect((await list(client)).notifications.filter((n) => n.kind === 'campaign_completed')).toHaveLength(1);

    // Rs 3 less a send is below the default Rs 100: one alert, not one per send.
    const low = (await list(client)).notifications.filter((n) => n.kind === 'low_balance');
    expect(low).toHaveLength(1);
    await server.services.notifications.lowBalanceCheck(user.id);
    expect((await list(client)).notifications.filter((n) => n.kind === 'low_balance')).toHaveLength(1);
    // Setting a new threshold arms the alert again; 0 turns it off.
    expect((await client.put('/api/notifications/low-balance', { thresholdRupees: 0 })).status).toBe(200);
    await server.services.notifications.lowBalanceCheck(user.id);
    expect((await list(client)).notifications.filter((n) => n.kind === 'low_balance')).toHaveLength(1);
    expect((await client.put('/api/notifications/low-balance', { thresholdRupees: -1 })).status).toBe(400);
  });

  it('streams new notifications as Server-Sent Events to the signed-in user only, and catches up after a reconnect', async () => {
    const { client, user } = await signedInClient(server);
    const { user: other } = await signedInClient(server);
    const cookie = `sandesh_session=${client.cookie('sandesh_session')}`;
    const response = await fetch(`${server.url}/api/notifications/stream`, { headers: { Cookie: cookie } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const events = readEvents(response, 2);
    await server.services.notifications.post(other.id, { type: 'info', kind: 'test', title: 'T', message: 'not yours' });
    await server.services.notifications.post(user.id, { type: 'success', kind: 'test', title: 'T', message: 'one' });
    await server.services.notifications.post(user.id, { type: 'error', kind: 'test', title: 'T', message: 'two' });
    const received = await events;
    expect(received.map((n) => n.message)).toEqual(['one', 'two']);

    // A reconnect with Last-Event-ID gets what was posted while it was away.
    await server.services.notifications.post(user.id, { type: 'info', kind: 'test', title: 'T', message: 'while away' });
    const again = await fetch(`${server.url}/api/notifications/stream`, { headers: { Cookie: cookie, 'Last-Event-ID': String(received[1]!.id) } });
    expect((await readEvents(again, 1)).map((n) => n.message)).toEqual(['while away']);
  });
});
