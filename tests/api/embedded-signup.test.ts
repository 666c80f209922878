/**
 * Connect WhatsApp yourself (docs/decisions/2026-12-07-embedded-signup.md): the server finishes
 * Meta's Embedded Signup against the simulator, which plays Meta (code exchange, subscribed_apps,
 * register, the number's read, the template list). One server runs as a platform with its own Meta
 * app (WHATSAPP_EMBEDDED_SIGNUP_CONFIG_ID, WHATSAPP_API_BASE pointed at the simulator); another
 * as `npm start` does, where the simulator stands in for Meta and the number sends to it.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@shared/messages';
import type { TWhatsappConnection } from '@shared/schemas/whatsappConnections';
import type { TSenderNumber } from '@shared/schemas/sending';
import type { User } from '../../server/src/models';
import type { TestClient } from '../../server/test/client';
import { buildCampaign, buildTemplate, signedInClient } from '../../server/test/factories';
import { pollUntil } from '../../server/test/polling';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';
import { SIMULATOR_ACCESS_TOKEN } from '../../server/src/sending/providerRegistry';
import { SIMULATOR_WRONG_PIN, type SimulatorEmbeddedSignup } from '../../server/src/simulator/embeddedSignup';
import type { SimulatorTemplates } from '../../server/src/simulator/templates';

/** A port nobody listens on now, so the server can be told its own address before it starts. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

interface ConnectionAnswer {
  success: boolean;
  error?: string;
  code?: string;
  connection: TWhatsappConnection;
}

const PIN = '246810';
const body = (text: string) => [{ type: 'BODY', text }];

async function numbersOf(client: TestClient): Promise<TSenderNumber[]> {
  const res = await client.get<{ data: TSenderNumber[] }>('/api/whatsapp/numbers');
  expect(res.status).toBe(200);
  return res.body.data;
}

/** A template quick send from `phoneNumberId`, expected accepted, then its message in the simulator's outbox. */
async function sendFrom(server: TestServer, client: TestClient, phoneNumberId: string, template: string, to: string): Promise<void> {
  const res = await client.post('/api/whatsapp/quick-send', { phone_number_id: phoneNumberId, template_name: template, language: 'en_US', recipients_text: to, variables: {} });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  await pollUntil(
    async () => server.outbox.list(to),
    (sent) => sent.some((message) => message.from === phoneNumberId && message.template === template),
    { what: `a send from ${phoneNumberId} to ${to}` },
  );
}

describe.skipIf(postgresUnavailable)('Connect WhatsApp with Meta (Embedded Signup against the simulator)', () => {
  let server: TestServer;
  let admin: TestClient;
  let meta: SimulatorEmbeddedSignup;
  let templates: SimulatorTemplates;
  let recipient = 919800000100;
  const nextRecipient = () => String((recipient += 1));

  beforeAll(async () => {
    const port = await freePort();
    server = await startTestServer({
      PORT: String(port),
      WHATSAPP_API_BASE: `http://127.0.0.1:${port}/simulator`,
      WHATSAPP_EMBEDDED_SIGNUP_CONFIG_ID: '987654321',
      WHATSAPP_APP_ID: '123456789',
      WHATSAPP_APP_SECRET: 'platform-app-secret',
    });
    admin = (await signedInClient(server, { role: 'admin' })).client;
    meta = server.services.simulator!.embeddedSignup;
    templates = server.services.simulator!.templates;
  });
  afterAll(async () => {
    await server?.close();
  });

  async function customer(): Promise<{ client: TestClient; user: User }> {
    return signedInClient(server, { creditRupees: 10 });
  }

  async function start(client: TestClient, session: { code: string; waba_id: string; phone_number_id: string }, pin = PIN) {
    return client.post<ConnectionAnswer>('/api/whatsapp/connections', { ...session, pin });
  }

  it('offers Meta’s SDK with the configuration id and app id, and lets its popup answer the page', async () => {
    const { client } = await customer();
    const res = await client.get<{ setup: Record<string, unknown> }>('/api/whatsapp/connect-setup');
    expect(res.status).toBe(200);
    expect(res.body.setup).toEqual({ enabled: true, sandbox: false, app_id: '123456789', config_id: '987654321', sdk_url: 'https://connect.facebook.net/en_US/sdk.js', graph_version: 'v23.0' });
    // Meta's popup answers through window.opener, and the page may load Meta's SDK.
    const health = await fetch(`${server.url}/api/health`);
    expect(health.headers.get('cross-origin-opener-policy')).toBe('same-origin-allow-popups');
    expect(health.headers.get('content-security-policy')).toContain('https://connect.facebook.net');
  });

  it('connects a number end to end: token, subscription, registration, its details, the business info (sealed), templates; then sends from it', async () => {
    const { client, user } = await customer();
    const session = meta.issue({ businessName: 'Asha Traders', displayPhoneNumber: '+91 98765 43210' });
    templates.seed(session.waba_id, { name: 'order_shipped', language: 'en_US', category: 'UTILITY', components: body('Your order has shipped') });

    const res = await start(client, session);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.connection).toMatchObject({
      status: 'connected',
      step: 'done',
      waba_id: session.waba_id,
      phone_number_id: session.phone_number_id,
      display_phone_number: '+91 98765 43210',
      verified_name: 'Asha Traders',
      quality_rating: 'GREEN',
      messaging_limit_tier: 'TIER_1K',
      templates_imported: 1,
      sandbox: false,
      error: null,
    });
    expect(res.body.connection.steps.every((step) => step.state === 'done')).toBe(true);
    expect(meta.isSubscribed(session.waba_id)).toBe(true);
    expect(meta.isRegistered(session.phone_number_id)).toBe(true);

    // What the admin's form stores, sealed as it seals it; the PIN is not kept.
    const info = await admin.get<{ businessInfo: Record<string, unknown> }>(`/api/admin/users/${user.id}/business-info`);
    expect(info.body.businessInfo).toMatchObject({ wabaId: session.waba_id, whatsappNumberId: session.phone_number_id, whatsappNumber: '919876543210', accessTokenSet: true, appSecretSet: true, isActive: true });
    const row = (await server.db('business_infos').where({ userId: user.id }).first()) as { accessTokenEncrypted: string; appSecretEncrypted: string };
    expect(row.accessTokenEncrypted).not.toContain(SIMULATOR_ACCESS_TOKEN);
    const connection = (await server.db('whatsapp_connections').where({ userId: user.id }).first()) as { pinEncrypted: string | null; accessTokenEncrypted: string };
    expect(connection.pinEncrypted).toBeNull();
    const credentials = await server.services.providerCredentials.credentialsForNumber(res.body.connection.number_id!);
    expect(credentials).toEqual({ kind: 'cloud_api', phoneNumberId: session.phone_number_id, accessToken: SIMULATOR_ACCESS_TOKEN, appSecret: 'platform-app-secret' });
    expect(server.services.providerCredentials).toBeTruthy();
    expect(connection.accessTokenEncrypted).not.toContain(SIMULATOR_ACCESS_TOKEN);
    expect(row.appSecretEncrypted).not.toContain('platform-app-secret');

    const own = (await numbersOf(client)).find((number) => number.phone_number_id === session.phone_number_id);
    expect(own).toBeTruthy();
    await sendFrom(server, client, session.phone_number_id, 'order_shipped', nextRecipient());

    const listed = await client.get<{ connections: TWhatsappConnection[] }>('/api/whatsapp/connections');
    expect(listed.body.connections.map((c) => c.id)).toEqual([res.body.connection.id]);
    // Connecting the same number again is refused.
    const duplicate = await client.post<{ code: string }>('/api/whatsapp/connections', { ...meta.issue(), phone_number_id: session.phone_number_id, pin: PIN });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.code).toBe('connection_connected');
  });

  it('refuses a PIN that is not 6 digits before calling Meta', async () => {
    const { client } = await customer();
    const res = await client.post<{ error: string }>('/api/whatsapp/connections', { ...meta.issue(), pin: '12345' });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain(messages.whatsappConnect.pinInvalid);
  });

  it('stops at the exchange with Meta’s reason (expired, used, wrong app secret) and resumes only with a new code', async () => {
    const { client } = await customer();
    const session = meta.issue();
    const expired = await start(client, { ...session, code: 'not-a-code-meta-issued' });
    expect(expired.status).toBe(422);
    expect(expired.body).toMatchObject({ success: false, code: 'meta_code_expired', error: messages.whatsappConnect.errors.codeExpired });
    expect(expired.body.connection).toMatchObject({ status: 'failed', step: 'exchange', needs_code: true, error: { meta_code: 100, meta_subcode: 36007 } });
    expect(expired.body.connection.steps[0]).toEqual({ step: 'exchange', state: 'failed' });

    const id = expired.body.connection.id;
    const noCode = await client.post<{ code: string }>(`/api/whatsapp/connections/${id}/resume`, {});
    expect(noCode.status).toBe(422);
    expect(noCode.body.code).toBe('connection_needs_code');

    meta.fail('exchange', { code: 1, message: 'Error validating client secret.' });
    const secret = await client.post<ConnectionAnswer>(`/api/whatsapp/connections/${id}/resume`, { code: session.code });
    expect(secret.status).toBe(502);
    expect(secret.body).toMatchObject({ code: 'meta_app_misconfigured', error: messages.whatsappConnect.errors.appMisconfigured });

    const resumed = await client.post<ConnectionAnswer>(`/api/whatsapp/connections/${id}/resume`, { code: session.code });
    expect(resumed.status, JSON.stringify(resumed.body)).toBe(200);
    expect(resumed.body.connection.status).toBe('connected');

    // That code is spent now: a second connection with it stops as Meta says.
    const other = meta.issue();
    const used = await start(client, { ...other, code: session.code });
    expect(used.body).toMatchObject({ code: 'meta_code_used', error: messages.whatsappConnect.errors.codeUsed });
  });

  it.each([
    ['subscribe', { code: 200, message: '(#200) Permissions error' }, 422, 'meta_permission_missing', messages.whatsappConnect.errors.permissionMissing],
    ['subscribe', { code: 100, message: '(#100) Unsupported post request' }, 422, 'meta_waba_not_found', messages.whatsappConnect.errors.wabaNotFound],
    ['register', { code: 133006, message: 'Phone number re-verification needed' }, 422, 'meta_needs_verification', messages.whatsappConnect.errors.needsVerification],
    ['register', { code: 133016, message: 'Account register deregister rate limit exceeded' }, 502, 'meta_register_rate_limit', messages.whatsappConnect.errors.registerRateLimit],
    ['register', { code: 133015, message: 'Please wait a few minutes before attempting to register this phone number' }, 422, 'meta_recently_deleted', messages.whatsappConnect.errors.recentlyDeleted],
    ['register', { code: 131031, message: 'Account has been locked' }, 422, 'meta_account_locked', messages.whatsappConnect.errors.accountLocked],
    ['read', { code: 100, message: 'Unsupported get request' }, 422, 'meta_number_not_found', messages.whatsappConnect.errors.numberNotFound],
    ['read', { code: 4, message: 'Application request limit reached' }, 502, 'meta_rate_limited', messages.whatsappConnect.errors.rateLimited],
    ['read', { code: 2, message: 'Service temporarily unavailable', httpStatus: 503 }, 502, 'meta_unavailable', messages.whatsappConnect.errors.unavailable],
    ['subscribe', { code: 99999, message: 'Something new' }, 502, 'meta_refused', 'Meta refused the step (99999: Something new).'],
  ] as const)('stops at %s when Meta answers %j, says so, and resumes from that step', async (step, fault, httpStatus, code, text) => {
    const { client } = await customer();
    const session = meta.issue();
    meta.fail(step, fault);
    const res = await start(client, session);
    expect(res.status).toBe(httpStatus);
    expect(res.body).toMatchObject({ success: false, code, error: text });
    expect(res.body.connection).toMatchObject({ status: 'failed', step, error: { code, message: text, meta_code: fault.code } });
    const index = res.body.connection.steps.findIndex((s) => s.step === step);
    expect(res.body.connection.steps.slice(0, index).every((s) => s.state === 'done')).toBe(true);
    expect(res.body.connection.steps[index]!.state).toBe('failed');
    expect(res.body.connection.steps.slice(index + 1).every((s) => s.state === 'pending')).toBe(true);

    const resumed = await client.post<ConnectionAnswer>(`/api/whatsapp/connections/${res.body.connection.id}/resume`, {});
    expect(resumed.status, JSON.stringify(resumed.body)).toBe(200);
    expect(resumed.body.connection).toMatchObject({ status: 'connected', error: null });
  });

  it('stops at registration when the number already has another PIN, and resumes with the right one', async () => {
    const { client } = await customer();
    const res = await start(client, meta.issue(), SIMULATOR_WRONG_PIN);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'meta_pin_mismatch', error: messages.whatsappConnect.errors.pinMismatch, connection: { step: 'register', status: 'failed' } });
    const badPin = await client.post(`/api/whatsapp/connections/${res.body.connection.id}/resume`, { pin: '12' });
    expect(badPin.status).toBe(400);
    const resumed = await client.post<ConnectionAnswer>(`/api/whatsapp/connections/${res.body.connection.id}/resume`, { pin: PIN });
    expect(resumed.body.connection.status).toBe('connected');
  });

  it('stops at the template sync when Meta’s list fails part way; the number is already stored; resume finishes', async () => {
    const { client } = await customer();
    const session = meta.issue();
    for (let i = 0; i < 101; i++) templates.seed(session.waba_id, { name: `manager_${i}`, language: 'en_US', category: 'UTILITY', components: body(`Order ${i} shipped`) });
    templates.fault(session.waba_id, { failPagesAfterFirst: true });
    try {
      const res = await start(client, session);
      expect(res.status).toBe(502);
      expect(res.body).toMatchObject({ code: 'template_sync_unavailable', connection: { step: 'templates', status: 'failed' } });
      expect(res.body.connection.number_id).not.toBeNull();
    } finally {
      templates.fault(session.waba_id, null);
    }
    const [connection] = (await client.get<{ connections: TWhatsappConnection[] }>('/api/whatsapp/connections')).body.connections;
    const resumed = await client.post<ConnectionAnswer>(`/api/whatsapp/connections/${connection!.id}/resume`, {});
    expect(resumed.body.connection).toMatchObject({ status: 'connected', templates_imported: 101 });
  });

  it('refuses to store a number another account has connected', async () => {
    const first = await customer();
    const session = meta.issue();
    expect((await start(first.client, session)).status).toBe(201);
    const second = await customer();
    const res = await start(second.client, { ...meta.issue(), waba_id: `9${session.waba_id.slice(1)}`, phone_number_id: session.phone_number_id });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'number_id_taken', error: messages.whatsappConnect.errors.numberTaken, connection: { step: 'store', status: 'failed' } });
  });

  it('removes a half-finished connection; another user cannot see or remove it', async () => {
    const { client } = await customer();
    meta.fail('subscribe', { code: 200 });
    const res = await start(client, meta.issue());
    const id = res.body.connection.id;
    const stranger = await customer();
    expect((await stranger.client.delete(`/api/whatsapp/connections/${id}`)).status).toBe(404);
    expect((await stranger.client.post(`/api/whatsapp/connections/${id}/resume`, {})).status).toBe(404);
    const removed = await client.delete<{ message: string }>(`/api/whatsapp/connections/${id}`);
    expect(removed.status).toBe(200);
    expect(removed.body.message).toBe(messages.whatsappConnect.removed);
    expect((await client.get<{ connections: unknown[] }>('/api/whatsapp/connections')).body.connections).toEqual([]);
    expect((await client.get(`/api/whatsapp/connections/${id}`)).status).toBe(404);
  });

  it('adds a second number beside the first; both send; the admin disconnects the first: its campaigns pause and the business moves to the second', async () => {
    const { client, user } = await customer();
    const one = meta.issue({ businessName: 'Ravi Stores', displayPhoneNumber: '+91 90000 11111' });
    templates.seed(one.waba_id, { name: 'welcome_note', language: 'en_US', category: 'UTILITY', components: body('Welcome to Ravi Stores') });
    expect((await start(client, one)).status).toBe(201);
    // The second number in the same business account (Meta lets one WABA hold several).
    const issued = meta.issue({ businessName: 'Ravi Stores', displayPhoneNumber: '+91 90000 22222' });
    const two = { ...issued, waba_id: one.waba_id };
    const second = await start(client, two);
    expect(second.status, JSON.stringify(second.body)).toBe(201);

    const numbers = await numbersOf(client);
    expect(numbers.map((n) => n.phone_number_id)).toEqual(expect.arrayContaining([one.phone_number_id, two.phone_number_id]));
    await sendFrom(server, client, two.phone_number_id, 'welcome_note', nextRecipient());
    await sendFrom(server, client, one.phone_number_id, 'welcome_note', nextRecipient());

    // An admin save of the business info keeps the second number.
    expect((await admin.put(`/api/admin/users/${user.id}/business-info`, { businessName: 'Ravi Stores Pvt Ltd' })).status).toBe(200);
    expect((await numbersOf(client)).map((n) => n.phone_number_id)).toContain(two.phone_number_id);

    const firstNumberId = (await client.get<{ connections: TWhatsappConnection[] }>('/api/whatsapp/connections')).body.connections.find((c) => c.phone_number_id === one.phone_number_id)!;
    const campaign = await buildCampaign(server, user, { senderNumberId: firstNumberId.number_id!, status: 'running', messages: [{ status: 'queued' }] });

    const listed = await admin.get<{ connections: TWhatsappConnection[] }>(`/api/admin/users/${user.id}/whatsapp-connections`);
    expect(listed.body.connections).toHaveLength(2);
    const stranger = await customer();
    expect((await stranger.client.post(`/api/admin/users/${user.id}/whatsapp-connections/${firstNumberId.id}/disconnect`)).status).toBe(403);
    const disconnected = await admin.post<{ paused_campaign_ids: number[]; message: string }>(`/api/admin/users/${user.id}/whatsapp-connections/${firstNumberId.id}/disconnect`);
    expect(disconnected.status, JSON.stringify(disconnected.body)).toBe(200);
    expect(disconnected.body).toMatchObject({ message: messages.whatsappConnect.disconnected, paused_campaign_ids: [campaign.campaignId] });
    const paused = (await server.db('campaigns').where({ id: campaign.campaignId }).first()) as { status: string; pauseReason: string };
    expect(paused).toMatchObject({ status: 'paused', pauseReason: 'number_disconnected' });
    const shown = await client.get<{ data: { pauseReason: string | null } }>(`/api/campaigns/${campaign.campaignId}`);
    expect(shown.body.data.pauseReason).toBe('number_disconnected');
    // Its owner cannot resume it while the number stays disconnected: the answer says why, and it stays paused.
    const resumed = await client.post<{ error: { code: string; message: string } }>(`/api/campaigns/${campaign.campaignId}/resume`);
    expect(resumed.status).toBe(409);
    expect(JSON.stringify(resumed.body)).toContain(messages.whatsappConnect.cannotResumeDisconnected);
    expect(((await server.db('campaigns').where({ id: campaign.campaignId }).first()) as { status: string }).status).toBe('paused');

    const after = (await numbersOf(client)).map((n) => n.phone_number_id);
    expect(after).not.toContain(one.phone_number_id);
    expect(after).toContain(two.phone_number_id);
    const info = await admin.get<{ businessInfo: Record<string, unknown> }>(`/api/admin/users/${user.id}/business-info`);
    expect(info.body.businessInfo).toMatchObject({ whatsappNumberId: two.phone_number_id, whatsappNumber: '919000022222', businessName: 'Ravi Stores Pvt Ltd' });
    await sendFrom(server, client, two.phone_number_id, 'welcome_note', nextRecipient());

    // Disconnecting twice is refused; the user removing the last one leaves the business without a number.
    expect((await admin.post(`/api/admin/users/${user.id}/whatsapp-connections/${firstNumberId.id}/disconnect`)).status).toBe(409);
    const secondId = second.body.connection.id;
    const removed = await client.delete<{ message: string }>(`/api/whatsapp/connections/${secondId}`);
    expect(removed.body.message).toBe(messages.whatsappConnect.disconnected);
    expect((await numbersOf(client)).map((n) => n.phone_number_id)).not.toContain(two.phone_number_id);
    const emptied = await admin.get<{ businessInfo: Record<string, unknown> }>(`/api/admin/users/${user.id}/business-info`);
    expect(emptied.body.businessInfo).toMatchObject({ whatsappNumberId: null });
  });
});

describe.skipIf(postgresUnavailable)('Connect WhatsApp in the sandbox (the simulator plays Meta, as on npm start)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('offers the simulator’s SDK stand-in, serves its popup, connects a simulator number and sends from it', async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 10 });
    const setup = await client.get<{ setup: { enabled: boolean; sandbox: boolean; sdk_url: string } }>('/api/whatsapp/connect-setup');
    expect(setup.body.setup).toMatchObject({ enabled: true, sandbox: true, sdk_url: '/simulator/embedded-signup/sdk.js' });
    const sdk = await fetch(`${server.url}${setup.body.setup.sdk_url}`);
    expect(sdk.status).toBe(200);
    expect(await sdk.text()).toContain('window.FB');
    const dialog = await fetch(`${server.url}/simulator/embedded-signup/dialog?origin=${encodeURIComponent(server.url)}`);
    expect(await dialog.text()).toContain('dialog.js');

    // What the popup's Finish does.
    const issued = await fetch(`${server.url}/simulator/embedded-signup/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ business_name: 'Meena Sweets', display_phone_number: '+91 99887 76655' }),
    });
    const session = (await issued.json()) as { code: string; waba_id: string; phone_number_id: string };
    const res = await client.post<ConnectionAnswer>('/api/whatsapp/connections', { ...session, pin: PIN });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.connection).toMatchObject({ status: 'connected', sandbox: true, verified_name: 'Meena Sweets', display_phone_number: '+91 99887 76655' });
    // The sandbox keeps the admin's business info as it was: the number is the simulator's.
    expect(await server.db('business_infos').where({ userId: user.id }).first()).toBeUndefined();
    const number = (await numbersOf(client)).find((n) => n.phone_number_id === session.phone_number_id);
    expect(number).toMatchObject({ display_number: '919988776655' });

    const template = await buildTemplate(server, user, { category: 'UTILITY', body: 'Your sweets are ready' });
    await sendFrom(server, client, session.phone_number_id, template.name, '919800000999');
  });
});
