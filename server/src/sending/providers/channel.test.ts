import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatorOutbox } from '../../simulator/outbox';
import { startSimulatorServer, type SimulatorServer } from '../../simulator/cloudApiSimulator';
import { ChannelProvider, interpretD360Answer } from './channel';
import { templateMessageBody } from './http';
import { MISSING_CREDENTIALS_CODE, type TemplateSendRequest } from './types';

const request: TemplateSendRequest = {
  phoneNumberId: 'PN1',
  to: '919876543210',
  template: { name: 'welcome', language: 'en_US', components: [{ type: 'body', parameters: [{ type: 'text', text: 'Asha' }] }] },
};

describe('ChannelProvider (360dialog) against the simulator', () => {
  let server: SimulatorServer;
  const outbox = new SimulatorOutbox();

  beforeAll(async () => {
    server = await startSimulatorServer({
      outbox,
      // 360dialog knows which channel each of its keys is for.
      channelForKey: (key) => (key === 'channel-key' ? 'CH-7' : null),
      resolveTemplate: (sender, name) => (sender === 'CH-7' && name === 'welcome' ? [{ type: 'BODY', text: 'Welcome, {{1}}!' }] : null),
    });
  });
  afterAll(() => server.close());

  it('sends through the channel that serves the sender number', async () => {
    const provider = new ChannelProvider({ baseUrl: server.url, channelFor: (id) => (id === 'PN1' ? { channelId: 'CH-7', apiKey: 'channel-key' } : null) });
    const result = await provider.sendTemplate(request);
    expect(result).toMatchObject({ ok: true });
    expect(outbox.list('919876543210')[0]).toMatchObject({ text: 'Welcome, Asha!', from: 'CH-7' });
    expect(await provider.sendTemplate({ ...request, phoneNumberId: 'PN2' })).toMatchObject({ ok: false, code: MISSING_CREDENTIALS_CODE, retryable: false });
    await provider.close();
  });

  it('reads 360dialog refusing a wrong API key (401) as invalid credentials, not retryable', async () => {
    const provider = new ChannelProvider({ baseUrl: server.url, channelFor: () => ({ channelId: 'CH-7', apiKey: 'wrong-key-123' }) });
    const result = await provider.sendTemplate(request);
    expect(result).toMatchObject({ ok: false, code: 190, httpStatus: 401, retryable: false });
    expect(result.ok ? '' : result.title).toContain('360dialog');
    await provider.close();
  });
});

describe('ChannelProvider request shape', () => {
  it("posts the Cloud API adapter's body to 360dialog's /messages with the D360-API-KEY header", async () => {
    const seen: { url: string; method: string; headers: IncomingHttpHeaders; body: string }[] = [];
    const stub = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        seen.push({ url: req.url ?? '', method: req.method ?? '', headers: req.headers, body });
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ messaging_product: 'whatsapp', contacts: [{ input: '919876543210', wa_id: '919876543210' }], messages: [{ id: 'wamid.CH' }] }));
      });
    });
    await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
    const provider = new ChannelProvider({ baseUrl: `http://127.0.0.1:${(stub.address() as AddressInfo).port}/`, channelFor: () => ({ channelId: 'CH 9', apiKey: 'k-123' }) });
    const result = await provider.sendTemplate(request);
    await provider.close();
    await new Promise<void>((resolve) => stub.close(() => resolve()));
    expect(result).toEqual({ ok: true, providerMessageId: 'wamid.CH' });
    expect(seen[0]).toMatchObject({ url: '/messages', method: 'POST' });
    expect(seen[0]?.headers['d360-api-key']).toBe('k-123');
    expect(JSON.parse(seen[0]?.body ?? '')).toEqual(templateMessageBody(request));
  });
});

describe('interpretD360Answer', () => {
  it("passes Meta's error object through as the Cloud API adapter reads it", () => {
    const meta = JSON.stringify({ error: { message: '(#131026) Message undeliverable', code: 131026, error_data: { details: 'x' } } });
    expect(interpretD360Answer(400, meta)).toMatchObject({ ok: false, code: 131026, title: 'Message undeliverable', httpStatus: 400 });
  });

  it("reads 360dialog's own error shapes", () => {
    expect(interpretD360Answer(401, JSON.stringify({ error: 'Invalid api key' }))).toMatchObject({ ok: false, code: 190, retryable: false, httpStatus: 401 });
    expect(interpretD360Answer(500, JSON.stringify({ meta: { success: false, http_code: 500, developer_message: 'Internal error' } }))).toMatchObject({
      ok: false,
      code: 500,
      title: '360dialog: Internal error',
      retryable: true,
    });
  });
});
