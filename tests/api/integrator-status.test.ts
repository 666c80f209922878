import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@shared/messages';
import { ZMessagesPage, ZPublicMessage, type TMessagesPage, type TPublicMessage } from '@shared/schemas/messages';
import type { TReportsPage } from '@shared/schemas/reports';
import { buildUser, signedInClient } from '../../server/test/factories';
import { approvedTemplate, keyedClient, pollUntil } from '../../server/test/integrators';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';

describe.skipIf(postgresUnavailable)('status by API key', () => {
  let server: TestServer;
  beforeAll(async () => {
    // Polling for statuses makes many reads; the read allowance itself is not what these tests measure.
    server = await startTestServer({ API_RATE_LIMIT_PER_15_MIN: '1000' });
  });
  afterAll(async () => {
    await server?.close();
  });

  describe('GET /api/messages/{messageId}', () => {
    it('answers the message as the send answered its id, through to delivered, with its cost', async () => {
      const { client, user } = await signedInClient(server, { creditRupees: 10 });
      const template = await approvedTemplate(server, user);
      const { api } = await keyedClient(server, client);
      const sent = await api.post<{ message_id: string; campaign_id: number }>('/api/send', { username: user.username, templatename: template.name, recipient_number: '919811000011', var1: 'Asha' });
      expect(sent.status).toBe(200);
      const delivered = await pollUntil(
        () => api.get<TPublicMessage>(`/api/messages/${sent.body.message_id}`),
        (res) => res.status === 200 && (res.body.status === 'delivered' || res.body.status === 'read'),
      );
      expect(ZPublicMessage.parse(delivered.body)).toMatchObject({
        message_id: sent.body.message_id,
        recipient: '919811000011',
        template: template.name,
        campaign_id: sent.body.campaign_id,
      });
      expect(delivered.body.cost).toBeGreaterThan(0);
      expect(delivered.body.sent_at).toEqual(expect.any(String));
      expect(delivered.body.delivered_at).toEqual(expect.any(String));
      expect(delivered.body.error_code).toBeUndefined();
    });

    it('answers a failed message with its error code and title', async () => {
      const { client, user } = await signedInClient(server, { creditRupees: 10 });
      const template = await approvedTemplate(server, user);
      const { api } = await keyedClient(server, client);
      const sent = await api.post<{ message_id: string }>('/api/send', { username: user.username, templatename: template.name, recipient_number: '919876540000', var1: 'X' });
      expect(sent.status).toBe(200);
      const failed = await pollUntil(
        () => api.get<TPublicMessage>(`/api/messages/${sent.body.message_id}`),
        (res) => res.body.status === 'failed',
      );
      expect(failed.body).toMatchObject({ status: 'failed', error_code: 131026, error_title: expect.stringContaining('undeliverable') });
    });

    it("answers 404 for another owner's message, an unknown id and a malformed id", async () => {
      const owner = await signedInClient(server, { creditRupees: 10 });
      const template = await approvedTemplate(server, owner.user);
      const { api: ownerApi } = await keyedClient(server, owner.client);
      const sent = await ownerApi.post<{ message_id: string }>('/api/send', { username: owner.user.username, templatename: template.name, recipient_number: '919811000012', var1: 'Y' });
      expect(sent.status).toBe(200);
      const stranger = await signedInClient(server);
      const { api: strangerApi } = await keyedClient(server, stranger.client);
      for (const path of [`/api/messages/${sent.body.message_id}`, '/api/messages/msg_999999999', '/api/messages/48213907', '/api/messages/msg_x']) {
        const res = await strangerApi.get<{ success: boolean; code: string; error: string }>(path);
        expect(res.status, path).toBe(404);
        expect(res.body).toMatchObject({ success: false, code: 'message_not_found', error: messages.integrations.messageNotFound });
      }
      // The owner's session reads it as well.
      expect((await owner.client.get(`/api/messages/${sent.body.message_id}`)).status).toBe(200);
    });

    it('answers 401 without a session or a key, and for a wrong key', async () => {
      const anonymous = await fetch(`${server.url}/api/messages/msg_1`);
      expect(anonymous.status).toBe(401);
      const wrongKey = await fetch(`${server.url}/api/messages/msg_1`, { headers: { 'X-API-Key': 'snd_wrong' } });
      expect(wrongKey.status).toBe(401);
      expect(await wrongKey.json()).toMatchObject({ success: false, code: 'invalid_api_key' });
    });
  });

  describe('GET /api/messages', () => {
    it('pages a campaign 100 at a time by cursor, newest first, every message once', async () => {
      const { client, user } = await signedInClient(server, { creditRupees: 500 });
      const template = await approvedTemplate(server, user);
      const { api } = await keyedClient(server, client);
      const recipients = Array.from({ length: 230 }, (_, i) => `9198200${String(i).padStart(5, '0')}`);
      const batch = await api.post<{ data: { campaignId: number } }>('/api/send/batch', {
        username: user.username,
        templatename: template.name,
        messages: recipients.map((recipient_number) => ({ recipient_number, var1: 'Z' })),
      });
      expect(batch.status).toBe(200);
      const campaignId = batch.body.data.campaignId;

      const seen: string[] = [];
      const ids: number[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const query: string = `campaign_id=${campaignId}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const res = await api.get<TMessagesPage>(`/api/messages?${query}`);
        expect(res.status).toBe(200);
        const page = ZMessagesPage.parse(res.body);
        expect(page.data.length).toBeLessThanOrEqual(100);
        expect(page.has_more).toBe(page.next_cursor !== null);
        seen.push(...page.data.map((m) => m.recipient));
        ids.push(...page.data.map((m) => Number(m.message_id.slice(4))));
        cursor = page.next_cursor;
        pages += 1;
      } while (cursor);
      expect(pages).toBe(3);
      expect(new Set(seen)).toEqual(new Set(recipients));
      expect(seen).toHaveLength(recipients.length);
      expect(ids).toEqual([...ids].sort((a, b) => b - a));
    });

    it('filters by status and refuses a bad cursor, status or campaign id with 400', async () => {
      const { client, user } = await signedInClient(server, { creditRupees: 10 });
      const template = await approvedTemplate(server, user);
      const { api } = await keyedClient(server, client);
      const good = await api.post<{ message_id: string }>('/api/send', { username: user.username, templatename: template.name, recipient_number: '919811000021', var1: 'A' });
      const bad = await api.post<{ message_id: string }>('/api/send', { username: user.username, templatename: template.name, recipient_number: '919876540000', var1: 'B' });
      await pollUntil(
        () => api.get<TPublicMessage>(`/api/messages/${bad.body.message_id}`),
        (res) => res.body.status === 'failed',
      );
      const failed = await api.get<TMessagesPage>('/api/messages?status=failed');
      expect(failed.status).toBe(200);
      expect(failed.body.data.map((m) => m.message_id)).toEqual([bad.body.message_id]);
      const all = await api.get<TMessagesPage>('/api/messages');
      expect(all.body.data.map((m) => m.message_id).sort()).toEqual([good.body.message_id, bad.body.message_id].sort());

      const badCursor = await api.get<{ field: string }>('/api/messages?cursor=not-a-cursor');
      expect(badCursor.status).toBe(400);
      expect(badCursor.body).toMatchObject({ field: 'cursor' });
      expect((await api.get('/api/messages?status=pending')).status).toBe(400);
      expect((await api.get('/api/messages?campaign_id=abc')).status).toBe(400);
    });

    it("never lists another owner's messages", async () => {
      const owner = await signedInClient(server, { creditRupees: 10 });
      const template = await approvedTemplate(server, owner.user);
      const { api: ownerApi } = await keyedClient(server, owner.client);
      const sent = await ownerApi.post<{ campaign_id: number }>('/api/send', { username: owner.user.username, templatename: template.name, recipient_number: '919811000031', var1: 'Q' });
      const stranger = await buildUser(server);
      const strangerClient = await signedInClient(server, { username: `${stranger.username}_b` });
      const { api } = await keyedClient(server, strangerClient.client);
      const res = await api.get<TMessagesPage>(`/api/messages?campaign_id=${sent.body.campaign_id}`);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([]);
      expect(res.body.next_cursor).toBeNull();
    });
  });

  describe('GET /api/whatsapp/reports', () => {
    it('accepts the API key as the docs promise, and still a session', async () => {
      const { client, user } = await signedInClient(server, { creditRupees: 10 });
      const template = await approvedTemplate(server, user);
      const { api, key } = await keyedClient(server, client);
      await api.post('/api/send', { username: user.username, templatename: template.name, recipient_number: '919811000041', var1: 'R' });
      const viaKey = await api.get<{ success: boolean; data: TReportsPage }>('/api/whatsapp/reports');
      expect(viaKey.status).toBe(200);
      expect(viaKey.body.data.reports.map((r) => r.recipient_number)).toEqual(['919811000041']);
      const viaBearer = await fetch(`${server.url}/api/whatsapp/reports`, { headers: { Authorization: `Bearer ${key}` } });
      expect(viaBearer.status).toBe(200);
      expect((await client.get('/api/whatsapp/reports')).status).toBe(200);
      expect((await fetch(`${server.url}/api/whatsapp/reports`)).status).toBe(401);
    });
  });
});
