/**
 * The channel provider is 360dialog: saving a user's channel settings registers Sandesh's webhook
 * at 360dialog (`POST /v1/configs/webhook`, D360-API-KEY), campaigns go out through `POST
 * /messages` with Cloud API bodies, and the statuses 360dialog forwards (Meta's payload, unsigned,
 * with the headers registered) come back to the campaign. The simulator plays 360dialog with its
 * own keys, so a key it does not know is refused with 401 as 360dialog refuses it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillMessage, messages } from '@shared/messages';
import type { TSenderNumber } from '@shared/schemas/sending';
import type { TProviderSettingsResponse, TProviderSettingsSaveResponse } from '@shared/types';
import { CHANNEL_WEBHOOK_HEADERS, channelWebhookToken } from '../../server/src/providerAccounts/channelWebhook';
import { WEBHOOK_PATH } from '../../server/src/sending/engine';
import { signWebhookBody } from '../../server/src/sending/providers/webhooks';
import { d360PhoneNumberId, startSimulatorServer, type SimulatorServer } from '../../server/src/simulator/cloudApiSimulator';
import { SimulatorOutbox } from '../../server/src/simulator/outbox';
import { FLOW_TEMPLATE_BODY, freePort, plainRecipients, TEST_WEBHOOK_RETRY } from '../../server/test/campaignFlow';
import type { TestClient } from '../../server/test/client';
import { buildTemplate, buildUser, signedInClient, uniqueName } from '../../server/test/factories';
import { waitForCampaign } from '../../server/test/polling';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';

describe.skipIf(postgresUnavailable)('the channel provider is 360dialog', () => {
  let server: TestServer;
  let admin: TestClient;
  let d360: SimulatorServer;
  const outbox = new SimulatorOutbox();
  /** The simulated 360dialog's accounts: which channel each API key is for. */
  const keys = new Map<string, string>();

  beforeAll(async () => {
    // The webhook URL registered at 360dialog is the server's public address: a known port.
    const port = await freePort();
    d360 = await startSimulatorServer({
      outbox,
      channelForKey: (key) => keys.get(key) ?? null,
      resolveTemplate: () => [{ type: 'BODY', text: FLOW_TEMPLATE_BODY }],
      // Read receipts are left out so that `delivered` is where each message rests.
      delays: { sentMs: 5, deliveredMs: 15, readMs: 600_000, jitterRatio: 0 },
      webhookRetry: TEST_WEBHOOK_RETRY,
      onWebhookError: () => undefined,
    });
    server = await startTestServer({ PORT: String(port), CHANNEL_API_BASE: d360.url });
    admin = (await signedInClient(server, { role: 'admin' })).client;
  });
  afterAll(async () => {
    await server?.close();
    await d360?.close();
  });

  /** A 360dialog account (channel id and key) known to the simulator. */
  function account(): { channelId: string; apiKey: string } {
    const tag = uniqueName('d').replace(/\W/g, '');
    const channelId = `ch_${tag}`.slice(0, 60);
    const apiKey = `d360-key-${tag}`;
    keys.set(apiKey, channelId);
    return { channelId, apiKey };
  }

  it('registers the webhook on save, sends a campaign through /messages and reads its forwarded statuses to delivered', async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 100 });
    const { channelId, apiKey } = account();

    const saved = await admin.put<TProviderSettingsSaveResponse>(`/api/admin/whatsapp/settings/${user.id}`, { channelId, apiKey });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ success: true, channelId, apiKeySet: true, webhook: { registered: true, error: null } });
    const registered = d360.simulator.channelWebhook(apiKey);
    expect(registered).toEqual({
      url: `${server.config.publicBaseUrl}${WEBHOOK_PATH}`,
      headers: { [CHANNEL_WEBHOOK_HEADERS.channel]: channelId, [CHANNEL_WEBHOOK_HEADERS.token]: channelWebhookToken(apiKey, channelId) },
    });
    // The token is derived from the key, never the key itself.
    expect(JSON.stringify(registered)).not.toContain(apiKey);

    const template = await buildTemplate(server, user, { body: FLOW_TEMPLATE_BODY });
    const numbers = await client.get<{ data: TSenderNumber[] }>('/api/whatsapp/numbers');
    const number = numbers.body.data.find((n) => n.phone_number_id === channelId);
    expect(number).toBeDefined();

    const recipients = plainRecipients(3, 9_300_000_000 + (Date.now() % 1_000) * 1_000);
    const sent = await client.post<{ data: { campaignId: number; accepted: number } }>('/api/whatsapp/bulk-quick-send', {
      phone_number_id: channelId,
      template_name: template.name,
      language: 'en_US',
      recipients_text: recipients.join('\n'),
      variables: { '1': 'Friend' },
      campaign_name: 'Through 360dialog',
    });
    expect(sent.status).toBe(200);
    expect(sent.body.data.accepted).toBe(3);

    const campaign = await waitForCampaign(client, sent.body.data.campaignId, (c) => c.counts.delivered === 3);
    expect(campaign.counts).toMatchObject({ delivered: 3, failed: 0, queued: 0, sending: 0 });
    // 360dialog received each message once, rendered from the Cloud API body.
    for (const to of recipients) expect(outbox.list(to).map((m) => m.text)).toEqual(['Hello Friend']);
  });

  it('refuses a key 360dialog answers with 401: nothing stored, the API key field says why', async () => {
    const user = await buildUser(server);
    const saved = await admin.put(`/api/admin/whatsapp/settings/${user.id}`, { channelId: `ch_${Date.now() % 1e9}`, apiKey: 'not-a-360dialog-key' });
    expect(saved.status).toBe(400);
    expect(saved.body).toMatchObject({ field: 'apiKey', error: fillMessage(messages.providers.d360KeyRefused, { reason: 'Invalid or missing D360-API-KEY' }) });
    const read = await admin.get<TProviderSettingsResponse>(`/api/admin/whatsapp/settings/${user.id}`);
    expect(read.body).toMatchObject({ channelId: null, apiKeySet: false });
    // 360dialog's own answer to the same key on /messages.
    const direct = await fetch(`${d360.url}/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'D360-API-KEY': 'not-a-360dialog-key' }, body: '{}' });
    expect(direct.status).toBe(401);
    expect(await direct.json()).toEqual({ error: 'Invalid or missing D360-API-KEY' });
  });

  it('refuses forged channel webhooks: wrong token, another channel, or signed with the API key', async () => {
    const user = await buildUser(server);
    const { channelId, apiKey } = account();
    expect((await admin.put(`/api/admin/whatsapp/settings/${user.id}`, { channelId, apiKey })).status).toBe(200);
    const other = account();
    const otherUser = await buildUser(server);
    expect((await admin.put(`/api/admin/whatsapp/settings/${otherUser.id}`, other)).status).toBe(200);

    const wamid = `wamid.FORGED${Date.now()}`;
    const body = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [{ id: 'WABA', changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', metadata: { display_phone_number: '1', phone_number_id: d360PhoneNumberId(channelId) }, statuses: [{ id: wamid, status: 'failed', timestamp: '1', recipient_id: '919800000005' }] } }] }],
    });
    const post = (headers: Record<string, string>) =>
      fetch(`${server.url}${WEBHOOK_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

    const forged: Record<string, string>[] = [
      { [CHANNEL_WEBHOOK_HEADERS.channel]: channelId, [CHANNEL_WEBHOOK_HEADERS.token]: 'f'.repeat(64) },
      { [CHANNEL_WEBHOOK_HEADERS.channel]: channelId },
      // The other account's genuine token does not open this channel.
      { [CHANNEL_WEBHOOK_HEADERS.channel]: channelId, [CHANNEL_WEBHOOK_HEADERS.token]: channelWebhookToken(other.apiKey, other.channelId) },
      // The key itself as the token, or as an HMAC secret (how channel webhooks were once checked).
      { [CHANNEL_WEBHOOK_HEADERS.channel]: channelId, [CHANNEL_WEBHOOK_HEADERS.token]: apiKey },
      { 'x-hub-signature-256': signWebhookBody(body, apiKey) },
    ];
    for (const headers of forged) expect((await post(headers)).status).toBe(401);

    const genuine = await post({ [CHANNEL_WEBHOOK_HEADERS.channel]: channelId, [CHANNEL_WEBHOOK_HEADERS.token]: channelWebhookToken(apiKey, channelId) });
    expect(genuine.status).toBe(200);
  });

  it('saves when 360dialog cannot be reached, and says the webhook is not registered', async () => {
    const unreachable = await startTestServer({ CHANNEL_API_BASE: 'http://127.0.0.1:9' });
    try {
      const unreachableAdmin = (await signedInClient(unreachable, { role: 'admin' })).client;
      const target = await buildUser(unreachable);
      const saved = await unreachableAdmin.put<TProviderSettingsSaveResponse>(`/api/admin/whatsapp/settings/${target.id}`, { channelId: 'ch_offline', apiKey: 'd360-key-offline' });
      expect(saved.status).toBe(200);
      expect(saved.body.apiKeySet).toBe(true);
      expect(saved.body.webhook?.registered).toBe(false);
      expect(saved.body.webhook?.error).toMatch(/^Saved, but the webhook could not be registered at 360dialog/);
    } finally {
      await unreachable.close();
    }
  });
});
