import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatorOutbox } from '../../simulator/outbox';
import { startSimulatorServer, type SimulatorServer } from '../../simulator/cloudApiSimulator';
import { ChannelProvider } from './channel';
import { MISSING_CREDENTIALS_CODE, type TemplateSendRequest } from './types';

const request: TemplateSendRequest = {
  phoneNumberId: 'PN1',
  to: '919876543210',
  template: { name: 'welcome', language: 'en_US', components: [{ type: 'body', parameters: [{ type: 'text', text: 'Asha' }] }] },
};

describe('ChannelProvider against the simulator', () => {
  let server: SimulatorServer;
  const outbox = new SimulatorOutbox();

  beforeAll(async () => {
    server = await startSimulatorServer({
      outbox,
      channelApiKey: 'channel-key',
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

  it('is refused with a wrong API key, not retryable', async () => {
    const provider = new ChannelProvider({ baseUrl: server.url, channelFor: () => ({ channelId: 'CH-7', apiKey: 'wrong' }) });
    expect(await provider.sendTemplate(request)).toMatchObject({ ok: false, code: 190, httpStatus: 401, retryable: false });
    await provider.close();
  });
});

describe('ChannelProvider request shape', () => {
  it('uses a configured path and key header with the Cloud API body', async () => {
    const seen: { url: string; headers: IncomingHttpHeaders; body: string }[] = [];
    const stub = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        seen.push({ url: req.url ?? '', headers: req.headers, body });
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ messages: [{ id: 'wamid.CH' }] }));
      });
    });
    await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
    const provider = new ChannelProvider({
      baseUrl: `http://127.0.0.1:${(stub.address() as AddressInfo).port}`,
      channelFor: () => ({ channelId: 'CH 9', apiKey: 'k-123' }),
      messagesPath: (channelId) => `/api/${encodeURIComponent(channelId)}/send`,
      apiKeyHeader: 'D360-API-KEY',
    });
    const result = await provider.sendTemplate(request);
    await provider.close();
    await new Promise<void>((resolve) => stub.close(() => resolve()));
    expect(result).toEqual({ ok: true, providerMessageId: 'wamid.CH' });
    expect(seen[0]?.url).toBe('/api/CH%209/send');
    expect(seen[0]?.headers['d360-api-key']).toBe('k-123');
    expect(JSON.parse(seen[0]?.body ?? '')).toMatchObject({ messaging_product: 'whatsapp', to: '919876543210', type: 'template', template: { name: 'welcome' } });
  });
});
