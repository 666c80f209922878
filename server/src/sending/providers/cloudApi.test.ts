import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TTemplateComponent } from '@shared/types';
import { SimulatorOutbox } from '../../simulator/outbox';
import { startSimulatorServer, type CloudApiSimulatorOptions, type SimulatorServer } from '../../simulator/cloudApiSimulator';
import { CloudApiProvider } from './cloudApi';
import { MISSING_CREDENTIALS_CODE, NETWORK_ERROR_CODE, type TemplateSendRequest } from './types';

const SENDER = '106540352242922';

const TEMPLATES: Record<string, TTemplateComponent[]> = {
  'order_update:en_US': [
    { type: 'HEADER', format: 'TEXT', text: 'Order {{1}}' },
    { type: 'BODY', text: 'Hi {{1}}, your order {{2}} ships today.' },
    { type: 'FOOTER', text: 'Reply STOP to opt out' },
  ],
};

function order(to: string, overrides: Partial<TemplateSendRequest> = {}): TemplateSendRequest {
  return {
    phoneNumberId: SENDER,
    to,
    template: {
      name: 'order_update',
      language: 'en_US',
      components: [
        { type: 'header', parameters: [{ type: 'text', text: 'ORD-1' }] },
        { type: 'body', parameters: [{ type: 'text', text: 'Rahul' }, { type: 'text', text: 'ORD-1' }] },
      ],
    },
    ...overrides,
  };
}

async function startSimulator(options: Partial<CloudApiSimulatorOptions> = {}): Promise<{ server: SimulatorServer; outbox: SimulatorOutbox }> {
  const outbox = new SimulatorOutbox();
  const server = await startSimulatorServer({
    outbox,
    resolveTemplate: (_sender, name, language) => TEMPLATES[`${name}:${language}`] ?? null,
    ...options,
  });
  return { server, outbox };
}

interface Captured {
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A stand-in provider answering fixed replies, to see the request and odd answers. */
async function startStub(status: number, reply: string): Promise<{ url: string; captured: Captured[]; server: Server }> {
  const captured: Captured[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      captured.push({ url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(status, { 'content-type': 'application/json' }).end(reply);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, captured, server };
}

describe('CloudApiProvider against the simulator', () => {
  let sim: { server: SimulatorServer; outbox: SimulatorOutbox };
  let provider: CloudApiProvider;

  beforeAll(async () => {
    sim = await startSimulator({ accessToken: 'good-token' });
    provider = new CloudApiProvider({ baseUrl: sim.server.url, apiVersion: 'v23.0', accessToken: 'good-token' });
  });
  afterAll(async () => {
    await provider.close();
    await sim.server.close();
  });

  it('sends a template and gets a wamid; the recipient holds the rendered text', async () => {
    const result = await provider.sendTemplate(order('+91 98765 43210'));
    expect(result).toMatchObject({ ok: true });
    if (!result.ok) return;
    expect(result.providerMessageId).toMatch(/^wamid\./);
    const [received] = sim.outbox.list('919876543210');
    expect(received).toMatchObject({
      id: result.providerMessageId,
      kind: 'template',
      template: 'order_update',
      from: SENDER,
      text: 'Order ORD-1\n\nHi Rahul, your order ORD-1 ships today.\n\nReply STOP to opt out',
    });
  });

  it('accepts a send to ...0000 (it fails later, by webhook) and keeps nothing for it', async () => {
    const result = await provider.sendTemplate(order('919876540000'));
    expect(result.ok).toBe(true);
    expect(sim.outbox.list('919876540000')).toEqual([]);
  });

  it('throttles ...0002 once with a retryable 130429, then lets it through', async () => {
    const first = await provider.sendTemplate(order('919876540002'));
    expect(first).toMatchObject({ ok: false, code: 130429, retryable: true, httpStatus: 429, title: 'Rate limit hit' });
    const second = await provider.sendTemplate(order('919876540002'));
    expect(second.ok).toBe(true);
  });

  it('answers 132001, not retryable, for an unknown template', async () => {
    const result = await provider.sendTemplate(order('919876543211', { template: { name: 'missing', language: 'en_US', components: [] } }));
    expect(result).toMatchObject({ ok: false, code: 132001, retryable: false, httpStatus: 400 });
  });

  it('answers 132000 when the parameters do not match the template', async () => {
    const result = await provider.sendTemplate(
      order('919876543212', { template: { name: 'order_update', language: 'en_US', components: [{ type: 'body', parameters: [{ type: 'text', text: 'only one' }] }] } }),
    );
    expect(result).toMatchObject({ ok: false, code: 132000, retryable: false });
  });

  it('answers 401 with code 190, not retryable, for a wrong token', async () => {
    const wrong = new CloudApiProvider({ baseUrl: sim.server.url, apiVersion: 'v23.0', accessToken: 'bad-token' });
    const result = await wrong.sendTemplate(order('919876543213'));
    await wrong.close();
    expect(result).toMatchObject({ ok: false, code: 190, retryable: false, httpStatus: 401 });
  });

  it('does not call out without credentials for the sender', async () => {
    const perNumber = new CloudApiProvider({ baseUrl: sim.server.url, apiVersion: 'v23.0', accessToken: (id) => (id === SENDER ? 'good-token' : null) });
    expect((await perNumber.sendTemplate(order('919876543214'))).ok).toBe(true);
    expect(await perNumber.sendTemplate(order('919876543214', { phoneNumberId: 'other' }))).toMatchObject({ ok: false, code: MISSING_CREDENTIALS_CODE, retryable: false });
    await perNumber.close();
  });
});

describe('CloudApiProvider throughput and transport errors', () => {
  let stub: Awaited<ReturnType<typeof startStub>> | null = null;
  afterEach(async () => {
    if (stub) await new Promise<void>((resolve) => stub?.server.close(() => resolve()));
    stub = null;
  });

  it('gets retryable 130429s past the sender limit', async () => {
    // The clock stands still, so however slowly a loaded machine delivers the five, none refills the bucket.
    const sim = await startSimulator({ messagesPerSecond: 2, rateClock: () => 0 });
    const provider = new CloudApiProvider({ baseUrl: sim.server.url, apiVersion: 'v23.0', accessToken: 'any' });
    const results = await Promise.all(['11', '12', '13', '14', '15'].map((n) => provider.sendTemplate(order(`9198765432${n}`))));
    await provider.close();
    await sim.server.close();
    expect(results.filter((r) => r.ok)).toHaveLength(2);
    const refused = results.filter((r) => !r.ok);
    expect(refused).toHaveLength(3);
    for (const r of refused) expect(r).toMatchObject({ code: 130429, retryable: true, httpStatus: 429 });
  });

  it('treats a refused connection as a retryable network error', async () => {
    stub = await startStub(200, '{}');
    const url = stub.url;
    await new Promise<void>((resolve) => stub?.server.close(() => resolve()));
    stub = null;
    const provider = new CloudApiProvider({ baseUrl: url, apiVersion: 'v23.0', accessToken: 't', timeoutMs: 2_000 });
    const result = await provider.sendTemplate(order('919876543210'));
    await provider.close();
    expect(result).toMatchObject({ ok: false, code: NETWORK_ERROR_CODE, retryable: true });
    expect(result).not.toHaveProperty('httpStatus');
  });

  it('gives up on a provider that never answers: a retryable network error, the send unknown', async () => {
    // The request reaches the provider, which may have taken the message: unknown, not failed.
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const provider = new CloudApiProvider({ baseUrl: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`, apiVersion: 'v23.0', accessToken: 't', timeoutMs: 200 });
      const result = await provider.sendTemplate(order('919876543210'));
      await provider.close();
      expect(result).toMatchObject({ ok: false, code: NETWORK_ERROR_CODE, retryable: true, unknown: true });
      expect(result.ok === false && result.title).toMatch(/^Network error \(TimeoutError: /);
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('posts the Graph API shape with the bearer token', async () => {
    stub = await startStub(200, JSON.stringify({ messaging_product: 'whatsapp', contacts: [{ input: '919876543210', wa_id: '919876543210' }], messages: [{ id: 'wamid.X' }] }));
    const provider = new CloudApiProvider({ baseUrl: `${stub.url}/`, apiVersion: 'v23.0', accessToken: 'tok' });
    const result = await provider.sendTemplate(order('919876543210'));
    await provider.close();
    expect(result).toEqual({ ok: true, providerMessageId: 'wamid.X' });
    const [request] = stub.captured;
    expect(request?.url).toBe(`/v23.0/${SENDER}/messages`);
    expect(request?.headers.authorization).toBe('Bearer tok');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request?.body ?? '')).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '919876543210',
      type: 'template',
      template: { name: 'order_update', language: { policy: 'deterministic', code: 'en_US' }, components: order('x').template.components },
    });
  });

  it.each([
    [500, '<html>Bad gateway</html>', { code: 500, retryable: true, title: 'HTTP 500' }],
    [503, JSON.stringify({ error: { message: 'Service temporarily unavailable', code: 2 } }), { code: 2, retryable: true }],
    [400, JSON.stringify({ error: { message: '(#131056) (Business Account, Consumer Account) pair rate limit hit', code: 131056 } }), { code: 131056, retryable: true }],
    [400, JSON.stringify({ error: { message: '(#131057) Account in maintenance mode', code: 131057 } }), { code: 131057, retryable: true }],
    [400, JSON.stringify({ error: { message: '(#131030) Recipient phone number not in allowed list', code: 131030 } }), { code: 131030, retryable: false, title: 'Recipient phone number not in allowed list' }],
  ])('reads an HTTP %i answer', async (status, reply, expected) => {
    stub = await startStub(status, reply);
    const provider = new CloudApiProvider({ baseUrl: stub.url, apiVersion: 'v23.0', accessToken: 't' });
    const result = await provider.sendTemplate(order('919876543210'));
    await provider.close();
    expect(result).toMatchObject({ ok: false, httpStatus: status, ...expected });
  });
});
