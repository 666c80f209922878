import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulatorServer, type SimulatorServer } from '../simulator/cloudApiSimulator';
import { SimulatorOutbox } from '../simulator/outbox';
import { CHANNEL_WEBHOOK_HEADERS, channelWebhookToken, channelWebhookTokenMatches, D360WebhookRegistrar, d360ErrorReason } from './channelWebhook';

describe('the token of a channel webhook', () => {
  it('is bound to the key and the channel, and never the key itself', () => {
    const token = channelWebhookToken('key-one-123', 'ch_1');
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(channelWebhookTokenMatches(token, 'key-one-123', 'ch_1')).toBe(true);
    expect(channelWebhookTokenMatches(token, 'key-two-123', 'ch_1')).toBe(false);
    expect(channelWebhookTokenMatches(token, 'key-one-123', 'ch_2')).toBe(false);
    expect(channelWebhookTokenMatches('key-one-123', 'key-one-123', 'ch_1')).toBe(false);
    expect(channelWebhookTokenMatches('', 'key-one-123', 'ch_1')).toBe(false);
  });
});

describe('D360WebhookRegistrar against the simulated 360dialog', () => {
  let d360: SimulatorServer;
  beforeAll(async () => {
    d360 = await startSimulatorServer({ outbox: new SimulatorOutbox(), resolveTemplate: () => null, channelForKey: (key) => (key === 'good-key-123' ? 'ch_1' : null) });
  });
  afterAll(() => d360.close());

  it('sets the URL with the channel and token headers', async () => {
    const registrar = new D360WebhookRegistrar({ baseUrl: `${d360.url}/` });
    expect(await registrar.register({ apiKey: 'good-key-123', channelId: 'ch_1', url: 'https://sandesh.example.in/api/webhooks/whatsapp' })).toEqual({ ok: true });
    expect(d360.simulator.channelWebhook('good-key-123')).toEqual({
      url: 'https://sandesh.example.in/api/webhooks/whatsapp',
      headers: { [CHANNEL_WEBHOOK_HEADERS.channel]: 'ch_1', [CHANNEL_WEBHOOK_HEADERS.token]: channelWebhookToken('good-key-123', 'ch_1') },
    });
  });

  it('reports a refused key apart from other failures', async () => {
    const registrar = new D360WebhookRegistrar({ baseUrl: d360.url });
    expect(await registrar.register({ apiKey: 'bad-key-123', channelId: 'ch_1', url: 'https://sandesh.example.in/hook' })).toEqual({
      ok: false,
      keyRefused: true,
      httpStatus: 401,
      reason: 'Invalid or missing D360-API-KEY',
    });
    expect(await registrar.register({ apiKey: 'good-key-123', channelId: 'ch_1', url: 'not a url' })).toMatchObject({ ok: false, keyRefused: false, httpStatus: 400, reason: 'Invalid webhook configuration' });
    const closed = new D360WebhookRegistrar({ baseUrl: 'http://127.0.0.1:9', timeoutMs: 2_000 });
    expect(await closed.register({ apiKey: 'good-key-123', channelId: 'ch_1', url: 'https://sandesh.example.in/hook' })).toMatchObject({ ok: false, keyRefused: false, httpStatus: null });
  });

  it("reads the reason from either of 360dialog's error shapes", () => {
    expect(d360ErrorReason(400, JSON.stringify({ meta: { success: false, http_code: 400, developer_message: 'Bad url' } }))).toBe('Bad url');
    expect(d360ErrorReason(401, JSON.stringify({ error: 'Invalid api key' }))).toBe('Invalid api key');
    expect(d360ErrorReason(502, '<html>Bad gateway</html>')).toBe('HTTP 502');
  });
});
