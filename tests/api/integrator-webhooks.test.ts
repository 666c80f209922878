import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@shared/messages';
import { ZPublicMessage, type TPublicMessage } from '@shared/schemas/messages';
import { ZWebhookDelivery, ZWebhookEndpoint, ZWebhookEndpointCreated, type TWebhookDelivery, type TWebhookEndpoint, type TWebhookEndpointCreated, type TWebhookEvent } from '@shared/schemas/webhookEndpoints';
import { verifySignature } from '../../server/src/integratorApi/webhooks/signature';
import type { TestClient } from '../../server/test/client';
import type { StatusEvent } from '../../server/src/sending/providers/types';
import { buildCampaign, buildTemplate, signedInClient } from '../../server/test/factories';
import { approvedTemplate, keyedClient, pollUntil } from '../../server/test/integrators';
import { campaignSettled, waitForCampaign } from '../../server/test/polling';
import { quickSend, sandboxNumber } from '../../server/test/sending';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from '../../server/test/webhookReceiver';

describe.skipIf(postgresUnavailable)('signed delivery webhooks', () => {
  let server: TestServer;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    server = await startTestServer({ API_RATE_LIMIT_PER_15_MIN: '1000' });
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
  });

  /** A fresh path on the shared receiver per test, so each test reads only its own requests. */
  let pathCounter = 0;
  function newPath(): string {
    pathCounter += 1;
    return `/hooks/${pathCounter}-${Date.now()}`;
  }
  const receivedAt = (path: string): ReceivedWebhook[] => receiver.received.filter((r) => r.path === path);

  async function integrator(creditRupees = 10) {
    const { client, user } = await signedInClient(server, { creditRupees });
    const template = await approvedTemplate(server, user);
    const { api } = await keyedClient(server, client);
    return { client, api, user, template };
  }

  async function createEndpoint(api: TestClient, body: Record<string, unknown>): Promise<TWebhookEndpointCreated> {
    const res = await api.post<TWebhookEndpointCreated>('/api/webhook-endpoints', body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return ZWebhookEndpointCreated.parse(res.body);
  }

  function verified(request: ReceivedWebhook, secret: string): TWebhookEvent | TWebhookEvent[] {
    expect(verifySignature(secret, request.body, String(request.headers['sandesh-signature']), new Date())).toBe(true);
    return JSON.parse(request.body) as TWebhookEvent | TWebhookEvent[];
  }

  describe('POST /api/webhook-endpoints', () => {
    it('answers 201 with the secret once; the list never shows it', async () => {
      const { api, client } = await integrator();
      const created = await createEndpoint(api, { url: `${receiver.url}${newPath()}`, events: ['message.delivered'], description: 'Orders' });
      expect(created.secret).toMatch(/^whsec_/);
      for (const lister of [api, client]) {
        const list = await lister.get<{ data: TWebhookEndpoint[] }>('/api/webhook-endpoints');
        expect(list.status).toBe(200);
        expect(list.body.data.map((e) => ZWebhookEndpoint.parse(e))).toMatchObject([{ id: created.id, events: ['message.delivered'], description: 'Orders', status: 'active', batch: false }]);
        expect(JSON.stringify(list.body)).not.toContain(created.secret);
      }
    });

    it('refuses a malformed URL, another scheme, a private address and unknown events with 400', async () => {
      const { api } = await integrator();
      for (const url of ['not a url', 'ftp://example.com/hook', 'http://10.1.2.3/hook', 'http://169.254.169.254/latest/meta-data', 'http://user:pw@127.0.0.1/x']) {
        const res = await api.post<{ field: string; code: string }>('/api/webhook-endpoints', { url, events: ['message.sent'] });
        expect(res.status, url).toBe(400);
        expect(res.body.field).toBe('url');
      }
      const addressRefused = await api.post<{ error: string }>('/api/webhook-endpoints', { url: 'http://192.168.1.10/hook', events: ['message.sent'] });
      expect(addressRefused.body.error).toBe(messages.integrations.webhookUrlAddress);
      expect((await api.post('/api/webhook-endpoints', { url: `${receiver.url}/x`, events: ['message.bounced'] })).status).toBe(400);
      expect((await api.post('/api/webhook-endpoints', { url: `${receiver.url}/x`, events: [] })).status).toBe(400);
    });
  });

  describe('delivery', () => {
    it('delivers signed message events in order per message, each carrying the message as GET /api/messages answers it', async () => {
      const { api, user, template } = await integrator();
      const path = newPath();
      const endpoint = await createEndpoint(api, { url: `${receiver.url}${path}`, events: ['message.sent', 'message.delivered', 'message.read'] });
      const sent = await api.post<{ message_id: string }>('/api/send', { username: user.username, templatename: template.name, recipient_number: '919811300003', var1: 'A' });
      expect(sent.status).toBe(200);
      await pollUntil(
        async () => receivedAt(path).map((r) => (JSON.parse(r.body) as TWebhookEvent).type),
        (types) => types.includes('message.read'),
      );
      const events = receivedAt(path).map((request) => {
        const event = verified(request, endpoint.secret) as TWebhookEvent;
        expect(request.headers['sandesh-event-id']).toBe(event.id);
        return event;
      });
      expect(events.map((e) => e.type)).toEqual(['message.sent', 'message.delivered', 'message.read']);
      for (const event of events) {
        const data = ZPublicMessage.parse(event.data);
        expect(data).toMatchObject({ message_id: sent.body.message_id, recipient: '919811300003', template: template.name });
      }
      const now = await api.get<TPublicMessage>(`/api/messages/${sent.body.message_id}`);
      expect(Object.keys(events[2]!.data).sort()).toEqual(Object.keys(now.body).sort());
    });

    it('delivers message.failed with the error code and title, and campaign.completed once', async () => {
      const { api, user, template } = await integrator();
      const path = newPath();
      await createEndpoint(api, { url: `${receiver.url}${path}`, events: ['message.failed', 'campaign.completed'] });
      const sent = await api.post<{ campaign_id: number }>('/api/send', { username: user.username, templatename: template.name, recipient_number: '919876540000', var1: 'A' });
      const types = await pollUntil(
        async () => receivedAt(path).map((r) => JSON.parse(r.body) as TWebhookEvent),
        (events) => events.some((e) => e.type === 'campaign.completed') && events.some((e) => e.type === 'message.failed'),
      );
      expect(types.find((e) => e.type === 'message.failed')?.data).toMatchObject({ status: 'failed', error_code: 131026, error_title: expect.stringContaining('undeliverable') });
      expect(types.filter((e) => e.type === 'campaign.completed').map((e) => e.data)).toEqual([expect.objectContaining({ campaign_id: sent.body.campaign_id })]);
    });

    it('delivers campaign.completed for a campaign complete as it is accepted (its one message Duplicate Blocked), in the accepting transaction', async () => {
      const { api, user, template } = await integrator();
      const path = newPath();
      await createEndpoint(api, { url: `${receiver.url}${path}`, events: ['campaign.completed'] });
      const send = { username: user.username, templatename: template.name, recipient_number: '919876540011', var1: 'A' };
      const first = await api.post<{ campaign_id: number; status: string }>('/api/send', send);
      expect(first.status).toBe(200);
      // A stop right after the accepting commit: nothing announced after it may be needed.
      const acceptance = server.services.campaignAcceptance;
      const settled = acceptance.onCampaignsSettled;
      acceptance.onCampaignsSettled = null;
      let repeat;
      try {
        repeat = await api.post<{ campaign_id: number; status: string }>('/api/send', send);
      } finally {
        acceptance.onCampaignsSettled = settled;
      }
      expect(repeat.body.status).toBe('duplicate');
      const events = await pollUntil(
        async () => receivedAt(path).map((r) => JSON.parse(r.body) as TWebhookEvent),
        (received) => received.some((e) => (e.data as { campaign_id?: number }).campaign_id === repeat.body.campaign_id),
      );
      expect(events.filter((e) => (e.data as { campaign_id?: number }).campaign_id === repeat.body.campaign_id).map((e) => e.type)).toEqual(['campaign.completed']);
    });

    it('writes status and completion events in the transaction that makes them: a stop right after the commit loses neither', async () => {
      const { api, user } = await integrator();
      const path = newPath();
      const endpoint = await createEndpoint(api, { url: `${receiver.url}${path}`, events: ['message.failed', 'campaign.completed'] });
      const built = await buildCampaign(server, user, { messages: [{ status: 'sent' }] });
      const message = built.messages[0] as { id: number; providerMessageId: string };
      const outcomes = server.services.engine.outcomes;
      // The process stopping between the commit and what is announced after it.
      const announced = { statuses: outcomes.onMessageStatuses, settled: outcomes.onCampaignsSettled };
      outcomes.onMessageStatuses = null;
      outcomes.onCampaignsSettled = null;
      try {
        const failed: StatusEvent = { providerMessageId: message.providerMessageId, phoneNumberId: null, status: 'failed', timestamp: new Date(), recipient: '', error: { code: 131026, title: 'Message undeliverable' } };
        await outcomes.applyStatusEvents([failed]);
      } finally {
        outcomes.onMessageStatuses = announced.statuses;
        outcomes.onCampaignsSettled = announced.settled;
      }
      const received = await pollUntil(
        async () => receivedAt(path),
        (requests) => requests.length >= 2,
      );
      const events = received.map((request) => verified(request, endpoint.secret) as TWebhookEvent);
      expect(events.map((event) => ({ type: event.type, data: event.data }))).toEqual([
        { type: 'message.failed', data: expect.objectContaining({ message_id: `msg_${message.id}`, status: 'failed', error_code: 131026 }) },
        { type: 'campaign.completed', data: expect.objectContaining({ campaign_id: built.campaignId }) },
      ]);
    });

    it('delivers arrays of events to an endpoint that takes batches', async () => {
      const { api, user, template } = await integrator(50);
      const path = newPath();
      const endpoint = await createEndpoint(api, { url: `${receiver.url}${path}`, events: ['message.sent'], batch: true });
      const recipients = Array.from({ length: 30 }, (_, i) => `9198214${String(i).padStart(5, '0')}`);
      const batch = await api.post('/api/send/batch', { username: user.username, templatename: template.name, messages: recipients.map((recipient_number) => ({ recipient_number, var1: 'Z' })) });
      expect(batch.status).toBe(200);
      const bodies = await pollUntil(
        async () => receivedAt(path).map((r) => verified(r, endpoint.secret) as TWebhookEvent[]),
        (arrays) => arrays.flat().length >= recipients.length,
      );
      for (const body of bodies) {
        expect(Array.isArray(body)).toBe(true);
        expect(body.length).toBeLessThanOrEqual(100);
      }
      expect(new Set(bodies.flat().map((e) => (e.data as TPublicMessage).recipient))).toEqual(new Set(recipients));
    });

    it('delivers message.received for each reply and message.button_clicked for a tap, with the campaign and the button text', async () => {
      const { client, api, user } = await integrator(50);
      const template = await buildTemplate(server, user, { body: 'Hi {{1}}, your order ships today', buttons: [{ type: 'QUICK_REPLY', text: 'Track my order' }] });
      const path = newPath();
      await createEndpoint(api, { url: `${receiver.url}${path}`, events: ['message.received', 'message.button_clicked'], batch: true });
      const contacts = ['919811220101', '919811220102'];
      const accepted = await quickSend(client, { template, recipients: contacts, variables: { '1': 'Asha' }, campaignName: 'Order updates' });
      await waitForCampaign(client, accepted.campaignId, (c) => campaignSettled(c) && c.counts.read === contacts.length);
      const number = await sandboxNumber(client);
      const inbox = (body: Record<string, unknown>) =>
        fetch(`${server.url}/simulator/inbox/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ phone_number_id: number.phone_number_id, ...body }) });
      expect((await inbox({ from: contacts[0], name: 'Asha', text: 'When will it arrive?' })).status).toBe(201);
      expect((await inbox({ from: contacts[1], name: 'Ravi', button: 'Track my order' })).status).toBe(201);
      const events = await pollUntil(
        async () => receivedAt(path).flatMap((r) => JSON.parse(r.body) as TWebhookEvent[]),
        (all) => all.filter((e) => e.type === 'message.received').length >= 2 && all.some((e) => e.type === 'message.button_clicked'),
      );
      const received = events.filter((e) => e.type === 'message.received').map((e) => e.data);
      expect(received).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ from: contacts[0], kind: 'text', text: 'When will it arrive?', campaign_id: accepted.campaignId, profile_name: 'Asha' }),
          expect.objectContaining({ from: contacts[1], kind: 'button', campaign_id: accepted.campaignId }),
        ]),
      );
      expect(events.filter((e) => e.type === 'message.button_clicked').map((e) => e.data)).toEqual([
        expect.objectContaining({ from: contacts[1], button_text: 'Track my order', campaign_id: accepted.campaignId, profile_name: 'Ravi' }),
      ]);
    });

    it('records a failed attempt with its status and next retry, and the retry call delivers it now', async () => {
      const { api } = await integrator();
      const path = newPath();
      const endpoint = await createEndpoint(api, { url: `${receiver.url}${path}`, events: ['message.sent'] });
      const previous = receiver.answer;
      receiver.answer = (request) => (request.path === path ? { status: 503 } : previous(request));
      const ping = await api.post<TWebhookDelivery>(`/api/webhook-endpoints/${endpoint.id}/test`);
      expect(ping.status).toBe(202);
      const failed = await pollUntil(
        () => api.get<{ data: TWebhookDelivery[] }>(`/api/webhook-endpoints/${endpoint.id}/deliveries`),
        (res) => res.body.data[0]?.attempts === 1,
      );
      const first = ZWebhookDelivery.parse(failed.body.data[0]);
      expect(first).toMatchObject({ id: ping.body.id, event: 'ping', state: 'pending', http_status: 503, attempts: 1 });
      expect(first.latency_ms).toEqual(expect.any(Number));
      const nextRetry = Date.parse(first.next_retry_at ?? '');
      expect(nextRetry).toBeGreaterThan(Date.parse(first.last_attempt_at ?? ''));

      receiver.answer = previous;
      const retried = await api.post<TWebhookDelivery>(`/api/webhook-endpoints/${endpoint.id}/deliveries/${first.id}/retry`);
      expect(retried.status).toBe(202);
      const done = await pollUntil(
        () => api.get<{ data: TWebhookDelivery[] }>(`/api/webhook-endpoints/${endpoint.id}/deliveries`),
        (res) => res.body.data[0]?.state === 'succeeded',
      );
      expect(done.body.data[0]).toMatchObject({ http_status: 200, attempts: 2, next_retry_at: null });
      const pings = receivedAt(path).map((r) => verified(r, endpoint.secret) as TWebhookEvent);
      expect(pings.map((e) => e.type)).toEqual(['ping', 'ping']);
      expect(pings[0]!.id).toBe(pings[1]!.id);
    });

    it('does not follow a redirect: a 3xx is a failed attempt', async () => {
      const { api } = await integrator();
      const path = newPath();
      const target = newPath();
      const endpoint = await createEndpoint(api, { url: `${receiver.url}${path}`, events: ['message.sent'] });
      const previous = receiver.answer;
      receiver.answer = (request) => (request.path === path ? { status: 302, headers: { location: `${receiver.url}${target}` } } : previous(request));
      await api.post(`/api/webhook-endpoints/${endpoint.id}/test`);
      const res = await pollUntil(
        () => api.get<{ data: TWebhookDelivery[] }>(`/api/webhook-endpoints/${endpoint.id}/deliveries`),
        (r) => r.body.data[0]?.attempts === 1,
      );
      receiver.answer = previous;
      expect(res.body.data[0]).toMatchObject({ state: 'pending', http_status: 302 });
      expect(receivedAt(target)).toEqual([]);
    });

    it('disables an endpoint failing for 3 days and tells its owner', async () => {
      const { api, client, user } = await integrator();
      const path = newPath();
      const endpoint = await createEndpoint(api, { url: `${receiver.url}${path}`, events: ['message.sent'] });
      await server.db('webhook_endpoints').where({ id: endpoint.id }).update({ failingSince: new Date(Date.now() - 4 * 86_400_000).toISOString() });
      const previous = receiver.answer;
      receiver.answer = (request) => (request.path === path ? { status: 500 } : previous(request));
      await api.post(`/api/webhook-endpoints/${endpoint.id}/test`);
      const list = await pollUntil(
        () => api.get<{ data: TWebhookEndpoint[] }>('/api/webhook-endpoints'),
        (res) => res.body.data[0]?.status === 'disabled',
      );
      receiver.answer = previous;
      expect(list.body.data[0]?.disabled_at).toEqual(expect.any(String));
      const notices = await client.get<{ data: { notifications: { kind: string; title: string }[] } }>('/api/notifications');
      expect(JSON.stringify(notices.body)).toContain(messages.integrations.webhookEndpointDisabledTitle);
      expect(user.id).toBeGreaterThan(0);
    });
  });

  describe('managing endpoints', () => {
    it('rotates the secret (later deliveries are signed with the new one), deletes, and hides other owners’ endpoints', async () => {
      const { api } = await integrator();
      const path = newPath();
      const endpoint = await createEndpoint(api, { url: `${receiver.url}${path}`, events: ['message.sent'] });
      const rotated = await api.post<TWebhookEndpointCreated>(`/api/webhook-endpoints/${endpoint.id}/rotate-secret`);
      expect(rotated.status).toBe(200);
      expect(rotated.body.secret).not.toBe(endpoint.secret);
      await api.post(`/api/webhook-endpoints/${endpoint.id}/test`);
      const [ping] = await pollUntil(
        async () => receivedAt(path),
        (requests) => requests.length === 1,
      );
      verified(ping!, rotated.body.secret);

      const stranger = await integrator();
      for (const [method, route] of [
        ['GET', `/api/webhook-endpoints/${endpoint.id}/deliveries`],
        ['POST', `/api/webhook-endpoints/${endpoint.id}/test`],
        ['POST', `/api/webhook-endpoints/${endpoint.id}/rotate-secret`],
        ['DELETE', `/api/webhook-endpoints/${endpoint.id}`],
      ] as const) {
        const res = await stranger.api.request<{ code: string }>(method, route, method === 'POST' ? {} : undefined);
        expect(res.status, route).toBe(404);
        expect(res.body.code).toBe('webhook_endpoint_not_found');
      }
      expect((await api.post(`/api/webhook-endpoints/${endpoint.id}/deliveries/999999999/retry`)).status).toBe(404);
      expect((await api.delete(`/api/webhook-endpoints/${endpoint.id}`)).status).toBe(204);
      expect((await api.get<{ data: unknown[] }>('/api/webhook-endpoints')).body.data).toEqual([]);
    });

    it('answers 401 without a session or key', async () => {
      expect((await fetch(`${server.url}/api/webhook-endpoints`)).status).toBe(401);
      const post = await fetch(`${server.url}/api/webhook-endpoints`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(post.status).toBe(401);
    });
  });
});
