/**
 * Cross-site request forgery (server/src/middleware/crossSite.ts). The routes are read from the
 * app's own routers, so a route added later is covered without being listed here: every
 * state-changing route that the session cookie authenticates refuses a request that a page of
 * another site could make (a form post, a sibling subdomain's fetch, a bodiless post), while the
 * desktop app's bearer token, API keys and the web app's own JSON keep working.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@shared/messages';
import type { TCampaign, TCampaignAccepted, TSenderNumber } from '@shared/schemas/sending';
import type { TWebhookEndpointCreated } from '@shared/schemas/webhookEndpoints';
import { apiRouters, SESSIONLESS_PATHS } from '../../server/src/app';
import { TestClient, type TestResponse } from '../../server/test/client';
import { buildUser, signedInClient } from '../../server/test/factories';
import { approvedTemplate, keyedClient } from '../../server/test/integrators';
import { postgresUnavailable, startTestServer, TEST_ADMIN, type TestServer } from '../../server/test/server';

const EVIL = 'https://evil.example';
const TRUSTED_WEB_ORIGIN = 'https://app.sandesh.example';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const FORM = 'application/x-www-form-urlencoded';

type ErrorBody = { error?: string; code?: string };

interface Route {
  method: string;
  path: string;
}

/** Every state-changing route the session cookie can authenticate, with its parameters filled in. */
function stateChangingRoutes(server: TestServer): Route[] {
  const routers = apiRouters({ config: server.config, logger: server.logger, services: server.services, outbox: server.outbox, version: 'test' });
  const routes = routers.flatMap((router) =>
    router.stack.flatMap((layer) =>
      layer.methods.filter((method) => !SAFE_METHODS.has(method)).map((method) => ({ method, path: String(layer.path).replace(/:\w+(\([^)]*\))?/g, '1') })),
    ),
  );
  // The session is read only under /api/, and never on the API-key and provider webhook paths.
  const cookieRoutes = routes.filter((route) => route.path.startsWith('/api/') && !SESSIONLESS_PATHS.has(route.path));
  // Signing out last: a request that got through would end the session the others use.
  return cookieRoutes.sort((a, b) => Number(a.path === '/api/auth/logout') - Number(b.path === '/api/auth/logout'));
}

function refusedAsCrossSite(response: TestResponse<ErrorBody>, route: string): void {
  expect(response.status, route).toBe(403);
  expect(response.body, route).toEqual({ error: messages.auth.crossSiteRequest, code: 'cross_site_request' });
}

describe.skipIf(postgresUnavailable)('cross-site requests with the session cookie', () => {
  let server: TestServer;
  let routes: Route[];

  beforeAll(async () => {
    server = await startTestServer({ API_RATE_LIMIT_PER_15_MIN: '1000', CORS_ORIGINS: TRUSTED_WEB_ORIGIN });
    routes = stateChangingRoutes(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('reads the routes from the app, the reported ones among them', () => {
    const listed = routes.map((route) => `${route.method} ${route.path}`);
    expect(listed.length).toBeGreaterThan(40);
    expect(listed).toEqual(
      expect.arrayContaining(['POST /api/campaigns/1/cancel', 'POST /api/webhook-endpoints/1/rotate-secret', 'POST /api/notifications/read', 'POST /api/auth/login']),
    );
  });

  it('refuses on every state-changing route a form posted from another site with the victim\'s cookie', async () => {
    const { client } = await signedInClient(server);
    for (const { method, path } of routes) {
      const response = await client.request<ErrorBody>(method, path, 'confirm=true&name=x', { 'Content-Type': FORM, Origin: EVIL, 'Sec-Fetch-Site': 'cross-site' });
      refusedAsCrossSite(response, `${method} ${path}`);
    }
    expect((await client.get('/api/auth/me')).status).toBe(200);
  });

  it('refuses on every route a sibling site\'s JSON, a bodiless post from another origin, and a form without any origin header', async () => {
    const { client } = await signedInClient(server);
    for (const { method, path } of routes) {
      const route = `${method} ${path}`;
      // A sibling subdomain is the same site: SameSite=Lax sends the cookie, Sec-Fetch-Site says same-site.
      refusedAsCrossSite(await client.request<ErrorBody>(method, path, {}, { Origin: 'https://shop.sandesh.example', 'Sec-Fetch-Site': 'same-site' }), route);
      // A browser from before Fetch Metadata sends Origin alone.
      refusedAsCrossSite(await client.request<ErrorBody>(method, path, undefined, { Origin: EVIL }), route);
      refusedAsCrossSite(await client.request<ErrorBody>(method, path, 'a=1', { 'Content-Type': FORM }), route);
      refusedAsCrossSite(await client.request<ErrorBody>(method, path, 'a=1', { 'Content-Type': 'text/plain' }), route);
    }
  });

  describe('the reported cases change nothing', () => {
    async function scheduledCampaign(client: TestClient, templateName: string, language: string): Promise<number> {
      const numbers = await client.get<{ data: TSenderNumber[] }>('/api/whatsapp/numbers');
      const accepted = await client.post<{ data: TCampaignAccepted }>('/api/whatsapp/quick-send', {
        phone_number_id: numbers.body.data[0]!.phone_number_id,
        template_name: templateName,
        language,
        recipients_text: '919800000001\n919800000002',
        variables: { '1': 'Meera' },
        scheduledAt: new Date(Date.now() + 3 * 3_600_000).toISOString(),
      });
      expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
      return accepted.body.data.campaignId;
    }

    it('keeps a scheduled campaign, a webhook secret and unread notifications after forged requests, and applies the same requests from the app', async () => {
      const { client, user } = await signedInClient(server, { creditRupees: 100 });
      const template = await approvedTemplate(server, user);
      const campaignId = await scheduledCampaign(client, template.name, template.language);
      const created = await client.post<TWebhookEndpointCreated>('/api/webhook-endpoints', { url: 'http://127.0.0.1:9/hook', events: ['message.delivered'] });
      expect(created.status).toBe(201);
      const endpointId = created.body.id;
      const sealed = async () => ((await server.db('webhook_endpoints').where({ id: endpointId }).first('secretSealed')) as { secretSealed: string }).secretSealed;
      const secretBefore = await sealed();
      await server.services.notifications.post(user.id, { type: 'info', kind: 'test', title: 'Hello', message: 'Unread' });
      const unread = async () => server.services.notifications.unreadCount(user.id);
      const unreadBefore = await unread();
      expect(unreadBefore).toBeGreaterThan(0);

      const forged = { 'Content-Type': FORM, Origin: EVIL, 'Sec-Fetch-Site': 'cross-site' };
      refusedAsCrossSite(await client.request<ErrorBody>('POST', `/api/campaigns/${campaignId}/cancel`, '', forged), 'cancel');
      refusedAsCrossSite(await client.request<ErrorBody>('POST', `/api/webhook-endpoints/${endpointId}/rotate-secret`, '', forged), 'rotate');
      refusedAsCrossSite(await client.request<ErrorBody>('POST', '/api/notifications/read', '', forged), 'read');
      expect((await client.get<{ data: TCampaign }>(`/api/campaigns/${campaignId}`)).body.data.status).toBe('scheduled');
      expect(await sealed()).toBe(secretBefore);
      expect(await unread()).toBe(unreadBefore);

      // The web app's own requests: same origin, JSON (an empty object where there is nothing to say).
      const ours = { Origin: new URL(server.url).origin, 'Sec-Fetch-Site': 'same-origin' };
      expect((await client.post(`/api/campaigns/${campaignId}/cancel`, {}, ours)).status).toBe(200);
      expect((await client.post(`/api/webhook-endpoints/${endpointId}/rotate-secret`, {}, ours)).status).toBe(200);
      expect((await client.post('/api/notifications/read', {}, ours)).status).toBe(200);
      expect((await client.get<{ data: TCampaign }>(`/api/campaigns/${campaignId}`)).body.data.status).toBe('cancelled');
      expect(await sealed()).not.toBe(secretBefore);
      expect(await unread()).toBe(0);
    });
  });

  it('leaves the desktop app\'s bearer token alone on every route, whatever the page headers say', async () => {
    const user = await buildUser(server);
    const login = await new TestClient(server.url).post('/api/auth/login', { username: user.username, password: user.plainPassword }, { 'X-Client': 'desktop' });
    expect(login.status).toBe(200);
    const desktop = new TestClient(server.url).useBearer(login.body.token as string);
    await server.services.notifications.post(user.id, { type: 'info', kind: 'test', title: 'Hello', message: 'Unread' });
    for (const { method, path } of routes) {
      const response = await desktop.request<ErrorBody>(method, path, 'a=1', { 'Content-Type': FORM, Origin: EVIL, 'Sec-Fetch-Site': 'cross-site' });
      expect(response.body.code, `${method} ${path}`).not.toBe('cross_site_request');
    }
    // The bodiless mark-read went through: nothing refused it.
    expect(await server.services.notifications.unreadCount(user.id)).toBe(0);
  });

  it('leaves API keys alone, on the routes keys share with the web app and on the public send API', async () => {
    const { client } = await signedInClient(server);
    const { api } = await keyedClient(server, client);
    const cross = { Origin: EVIL, 'Sec-Fetch-Site': 'cross-site' };
    const created = await api.post<TWebhookEndpointCreated>('/api/webhook-endpoints', { url: 'http://127.0.0.1:9/hook', events: ['message.delivered'] }, cross);
    expect(created.status).toBe(201);
    const rotated = await api.post<TWebhookEndpointCreated>(`/api/webhook-endpoints/${created.body.id}/rotate-secret`, {}, cross);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(created.body.secret);
    const sent = await api.post<ErrorBody>('/api/send', { to: '919800000003', template: 'missing' }, cross);
    expect(sent.body.code).not.toBe('cross_site_request');
  });

  describe('signing in (login CSRF)', () => {
    it('refuses a sign-in posted from another site, and takes one from the app, a trusted web origin, the desktop app or a script', async () => {
      const credentials = { username: TEST_ADMIN.username, password: TEST_ADMIN.password };
      const attempt = (headers: Record<string, string>, body: unknown = credentials) => new TestClient(server.url).request<ErrorBody>('POST', '/api/auth/login', body, headers);
      refusedAsCrossSite(await attempt({ Origin: EVIL, 'Sec-Fetch-Site': 'cross-site' }), 'cross-site JSON');
      refusedAsCrossSite(await attempt({ 'Content-Type': FORM }, `username=${credentials.username}&password=${credentials.password}`), 'form');
      refusedAsCrossSite(await attempt({ Origin: 'null' }), 'opaque origin');
      expect((await attempt({ Origin: new URL(server.url).origin, 'Sec-Fetch-Site': 'same-origin' })).status).toBe(200);
      // Without Fetch Metadata, an Origin naming this server's own host.
      expect((await attempt({ Origin: new URL(server.url).origin })).status).toBe(200);
      expect((await attempt({ Origin: TRUSTED_WEB_ORIGIN, 'Sec-Fetch-Site': 'same-site' })).status).toBe(200);
      expect((await attempt({ Origin: 'app://sandesh', 'Sec-Fetch-Site': 'cross-site', 'X-Client': 'desktop' })).status).toBe(200);
      expect((await attempt({})).status).toBe(200);
    });

    it('refuses a forged password reset request', async () => {
      const forged = await new TestClient(server.url).request<ErrorBody>('POST', '/api/auth/forgot-password', 'username=someone', { 'Content-Type': FORM, Origin: EVIL, 'Sec-Fetch-Site': 'cross-site' });
      refusedAsCrossSite(forged, 'forgot-password');
    });
  });

  it('takes the web app\'s uploads as multipart and resumable parts as raw bytes, on their routes only', async () => {
    const { client } = await signedInClient(server);
    const ours = { Origin: new URL(server.url).origin, 'Sec-Fetch-Site': 'same-origin' };
    const form = new FormData();
    form.append('file', new Blob(['phone\n919800000004\n'], { type: 'text/csv' }), 'list.csv');
    expect((await client.request<ErrorBody>('POST', '/api/whatsapp/parse-excel', form, ours)).body.code).not.toBe('cross_site_request');
    const elsewhere = new FormData();
    elsewhere.append('name', 'x');
    refusedAsCrossSite(await client.request<ErrorBody>('POST', '/api/keys', elsewhere, ours), 'multipart on a JSON route');
    const part = await client.request<ErrorBody>('PUT', '/api/uploads/missing/parts/1', new Uint8Array([1, 2, 3]), ours);
    expect(part.body.code).not.toBe('cross_site_request');
  });
});
