import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { bodyParser } from '@koa/bodyparser';
import { afterEach, describe, expect, it } from 'vitest';
import type { TTemplateComponent } from '@shared/types';
import { CloudApiProvider } from '../sending/providers/cloudApi';
import { parseCloudApiWebhook, verifyWebhookSignature } from '../sending/providers/webhooks';
import type { StatusEvent } from '../sending/providers/types';
import { CloudApiSimulator, startSimulatorServer, type CloudApiSimulatorOptions, type SimulatorServer } from './cloudApiSimulator';
import { SimulatorOutbox } from './outbox';

const APP_SECRET = 'simulator-app-secret';
const SENDER = '106540352242922';
const TEMPLATE: TTemplateComponent[] = [{ type: 'BODY', text: 'Hello {{1}}' }];

interface Received {
  raw: Buffer;
  signature: string | undefined;
}

/** Stands in for POST /api/webhooks/whatsapp: keeps the raw bytes and the signature header. */
async function startReceiver(): Promise<{ url: string; received: Received[]; server: Server }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const signature = req.headers['x-hub-signature-256'];
      received.push({ raw: Buffer.concat(chunks), signature: typeof signature === 'string' ? signature : undefined });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/webhooks/whatsapp`, received, server };
}

const toClose: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of toClose.splice(0).reverse()) await close();
});

async function setUp(options: Partial<CloudApiSimulatorOptions> = {}) {
  const receiver = await startReceiver();
  toClose.push(() => new Promise<void>((resolve) => receiver.server.close(() => resolve())));
  const outbox = new SimulatorOutbox();
  const server: SimulatorServer = await startSimulatorServer({
    outbox,
    resolveTemplate: () => TEMPLATE,
    webhook: { url: receiver.url, appSecret: APP_SECRET, wabaId: 'WABA1' },
    delays: { sentMs: 0, deliveredMs: 0, readMs: 0 },
    ...options,
  });
  toClose.push(() => server.close());
  const provider = new CloudApiProvider({ baseUrl: server.url, apiVersion: 'v23.0', accessToken: 'token' });
  toClose.push(() => provider.close());
  const send = (to: string) =>
    provider.sendTemplate({ phoneNumberId: SENDER, to, template: { name: 'hello', language: 'en_US', components: [{ type: 'body', parameters: [{ type: 'text', text: 'Asha' }] }] } });
  return { receiver, outbox, server, provider, send };
}

/** A simulator called without HTTP (its sends scheduled at once), posting to a receiver. */
async function directSimulator(options: Partial<CloudApiSimulatorOptions>) {
  const receiver = await startReceiver();
  toClose.push(() => new Promise<void>((resolve) => receiver.server.close(() => resolve())));
  const simulator = new CloudApiSimulator({ outbox: new SimulatorOutbox(), resolveTemplate: () => TEMPLATE, webhook: { url: receiver.url, appSecret: APP_SECRET }, ...options });
  toClose.push(() => simulator.close());
  const sendDirectly = (to: string) =>
    simulator.send({
      senderId: SENDER,
      credential: 't',
      via: 'cloud_api',
      body: { messaging_product: 'whatsapp', recipient_type: 'individual', to, type: 'template', template: { name: 'hello', language: { policy: 'deterministic', code: 'en_US' }, components: [{ type: 'body', parameters: [{ type: 'text', text: 'A' }] }] } },
    });
  return { receiver, simulator, sendDirectly };
}

function statusesByMessage(received: Received[]): Map<string, StatusEvent[]> {
  const byMessage = new Map<string, StatusEvent[]>();
  for (const post of received) {
    for (const status of parseCloudApiWebhook(JSON.parse(post.raw.toString('utf8'))).statuses) {
      byMessage.set(status.providerMessageId, [...(byMessage.get(status.providerMessageId) ?? []), status]);
    }
  }
  return byMessage;
}

describe('Cloud API simulator webhooks', () => {
  it('posts signed statuses, in order per message, by the test-number rules', async () => {
    const { receiver, server, send } = await setUp();
    const normal = await send('919876543210');
    const failing = await send('919876540000');
    const unread = await send('919876540001');
    await server.simulator.whenIdle();

    expect(receiver.received.length).toBeGreaterThan(0);
    for (const post of receiver.received) {
      expect(verifyWebhookSignature(post.raw, post.signature, APP_SECRET)).toBe(true);
      expect(verifyWebhookSignature(post.raw, post.signature, 'another-secret')).toBe(false);
      expect(JSON.parse(post.raw.toString('utf8'))).toMatchObject({ object: 'whatsapp_business_account', entry: [{ id: 'WABA1' }] });
    }
    const byMessage = statusesByMessage(receiver.received);
    const idOf = (r: typeof normal) => (r.ok ? r.providerMessageId : 'not sent');
    expect(byMessage.get(idOf(normal))?.map((s) => s.status)).toEqual(['sent', 'delivered', 'read']);
    expect(byMessage.get(idOf(unread))?.map((s) => s.status)).toEqual(['sent', 'delivered']);
    const failed = byMessage.get(idOf(failing));
    expect(failed?.map((s) => s.status)).toEqual(['failed']);
    expect(failed?.[0]).toMatchObject({ recipient: '919876540000', phoneNumberId: SENDER, error: { code: 131026, title: 'Message undeliverable' } });
  });

  it('batches due statuses into few posts and keeps each message in order despite jitter', async () => {
    const { receiver, server, send } = await setUp({ delays: { sentMs: 5, deliveredMs: 10, readMs: 15, jitterRatio: 1 }, maxStatusesPerPost: 50 });
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => send(`9198765${20_010 + i}`)));
    await server.simulator.whenIdle();
    expect(results.every((r) => r.ok)).toBe(true);
    const byMessage = statusesByMessage(receiver.received);
    expect(byMessage.size).toBe(40);
    for (const statuses of byMessage.values()) expect(statuses.map((s) => s.status)).toEqual(['sent', 'delivered', 'read']);
    expect(receiver.received.length).toBeLessThan(120);
  });

  it('puts statuses due together into one POST, up to the configured size', async () => {
    const { receiver, simulator, sendDirectly } = await directSimulator({ delays: { sentMs: 0, deliveredMs: 0, readMs: 0 }, maxStatusesPerPost: 25 });
    // Called directly (no HTTP), all 20 sends are scheduled before the first flush runs.
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => sendDirectly(`91987654${3100 + i}`)));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    await simulator.whenIdle();
    expect(receiver.received.map((post) => parseCloudApiWebhook(JSON.parse(post.raw.toString('utf8'))).statuses.length)).toEqual([25, 25, 10]);
  });

  // No test numbers here (0000 fails, 0001 is never read, 0002 is refused once).
  it('keeps thousands of jittered messages each in order, every status posted once', async () => {
    const { receiver, simulator, sendDirectly } = await directSimulator({ delays: { sentMs: 2, deliveredMs: 4, readMs: 6, jitterRatio: 1 }, maxStatusesPerPost: 500, messagesPerSecond: 100_000 });
    const answers = await Promise.all(Array.from({ length: 3_000 }, (_, i) => sendDirectly(`9198${String(70_000_003 + i)}`)));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    await simulator.whenIdle();
    const byMessage = statusesByMessage(receiver.received);
    expect(byMessage.size).toBe(3_000);
    for (const statuses of byMessage.values()) expect(statuses.map((s) => s.status)).toEqual(['sent', 'delivered', 'read']);
  });

  it('stops pending webhooks on close', async () => {
    const { receiver, server, send } = await setUp({ delays: { sentMs: 60_000, deliveredMs: 60_000, readMs: 60_000 } });
    expect((await send('919876543210')).ok).toBe(true);
    await server.close();
    await server.simulator.whenIdle();
    expect(receiver.received).toEqual([]);
  });

  it('reports a webhook endpoint that keeps failing once, and drops its statuses when they are too old to retry', async () => {
    const reports: { willRetry: boolean; statuses: number }[] = [];
    const { send, server } = await setUp({
      webhook: { url: 'http://127.0.0.1:9/api/webhooks/whatsapp', appSecret: APP_SECRET },
      webhookRetry: { firstDelayMs: 5, maxDelayMs: 20, maxAgeMs: 200 },
      onWebhookError: (_error, detail) => reports.push(detail),
    });
    await send('919876543210');
    await server.simulator.whenIdle();
    expect(reports[0]).toEqual({ willRetry: true, statuses: expect.any(Number) as number });
    expect(reports.filter((report) => report.willRetry)).toHaveLength(1);
    expect(reports.filter((report) => !report.willRetry).reduce((sum, report) => sum + report.statuses, 0)).toBe(3);
    expect(server.simulator.webhookCounts()).toMatchObject({ droppedStatuses: 3, pendingStatuses: 0 });
  });

  it('retries webhooks an endpoint refused until it takes them, every status once and each message in order', async () => {
    const receiver = await startReceiver();
    let refusing = true;
    const refused: number[] = [];
    const original = receiver.server.listeners('request')[0] as (req: unknown, res: unknown) => void;
    receiver.server.removeAllListeners('request');
    receiver.server.on('request', (req: Parameters<typeof original>[0] & { resume(): void }, res: { writeHead(code: number): { end(): void } }) => {
      if (!refusing) return original(req, res);
      refused.push(Date.now());
      req.resume();
      res.writeHead(503).end();
    });
    toClose.push(() => new Promise<void>((resolve) => receiver.server.close(() => resolve())));
    const simulator = new CloudApiSimulator({
      outbox: new SimulatorOutbox(),
      resolveTemplate: () => TEMPLATE,
      webhook: { url: receiver.url, appSecret: APP_SECRET },
      delays: { sentMs: 0, deliveredMs: 5, readMs: 10 },
      maxStatusesPerPost: 7,
      messagesPerSecond: 10_000,
      webhookRetry: { firstDelayMs: 5, maxDelayMs: 40, maxAgeMs: 60_000 },
    });
    toClose.push(() => simulator.close());
    const send = (to: string) =>
      simulator.send({
        senderId: SENDER,
        credential: 't',
        via: 'cloud_api',
        body: { messaging_product: 'whatsapp', recipient_type: 'individual', to, type: 'template', template: { name: 'hello', language: { policy: 'deterministic', code: 'en_US' }, components: [{ type: 'body', parameters: [{ type: 'text', text: 'A' }] }] } },
      });
    for (let i = 0; i < 30; i++) await send(`9198${String(71_000_003 + i)}`);
    const deadline = Date.now() + 10_000;
    while (refused.length < 5 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(refused.length).toBeGreaterThanOrEqual(5);
    refusing = false;
    await simulator.whenIdle();
    const byMessage = statusesByMessage(receiver.received);
    expect(byMessage.size).toBe(30);
    for (const statuses of byMessage.values()) expect(statuses.map((s) => s.status)).toEqual(['sent', 'delivered', 'read']);
    expect(simulator.webhookCounts()).toMatchObject({ droppedStatuses: 0, pendingStatuses: 0 });
    expect(simulator.webhookCounts().failedPosts).toBeGreaterThanOrEqual(5);
  });
});

describe('Cloud API simulator mounted under /simulator', () => {
  it('answers sends on the main app path and leaves other /simulator paths alone', async () => {
    const outbox = new SimulatorOutbox();
    const simulator = new CloudApiSimulator({ outbox, resolveTemplate: () => TEMPLATE });
    const app = new Koa();
    app.use(bodyParser());
    const router = simulator.router('/simulator');
    app.use(router.routes());
    app.use(router.allowedMethods());
    app.use((ctx) => {
      ctx.body = { data: outbox.list(typeof ctx.query.to === 'string' ? ctx.query.to : undefined) };
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    toClose.push(async () => {
      await simulator.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });

    const response = await fetch(`${base}/simulator/v23.0/${SENDER}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer anything' },
      body: JSON.stringify({ messaging_product: 'whatsapp', recipient_type: 'individual', to: '+919876543210', type: 'template', template: { name: 'hello', language: { policy: 'deterministic', code: 'en_US' }, components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ravi' }] }] } }),
    });
    const answer = (await response.json()) as { contacts: { input: string; wa_id: string }[]; messages: { id: string }[] };
    expect(response.status).toBe(200);
    expect(answer.contacts).toEqual([{ input: '+919876543210', wa_id: '919876543210' }]);
    expect(answer.messages[0]?.id).toMatch(/^wamid\./);

    const listed = (await (await fetch(`${base}/simulator/messages?to=919876543210`)).json()) as { data: { id: string; text: string; kind: string }[] };
    expect(listed.data).toEqual([expect.objectContaining({ id: answer.messages[0]?.id, text: 'Hello Ravi', kind: 'template' })]);

    const unauthenticated = await fetch(`${base}/simulator/v23.0/${SENDER}/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(unauthenticated.status).toBe(401);
    expect(await unauthenticated.json()).toMatchObject({ error: { code: 190, type: 'OAuthException' } });

    const malformed = await fetch(`${base}/simulator/v23.0/${SENDER}/messages`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer x' }, body: JSON.stringify({ to: '1' }) });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ error: { code: 100 } });
  });
});

describe('faults told per sender number', () => {
  it('answers a told code with the fields of Meta\'s error object, a set number of times, for that number only', async () => {
    const { server, send, provider } = await setUp();
    server.simulator.setFault(SENDER, { code: 131048, subcode: 2494010, isTransient: true, details: 'spam rate limit', times: 2 });
    const first = await send('919876543215');
    expect(first).toMatchObject({ ok: false, code: 131048, httpStatus: 400, subcode: 2494010, isTransient: true, details: 'spam rate limit', retryable: true });
    expect(first.ok ? '' : first.fbtraceId).toMatch(/^SIM/);
    expect(await send('919876543225')).toMatchObject({ ok: false, code: 131048 });
    expect(await send('919876543235')).toMatchObject({ ok: true });
    // Another number of the same simulator is not touched.
    server.simulator.setFault(SENDER, { code: 368 });
    const other = await provider.sendTemplate({ phoneNumberId: 'OTHER', to: '919876543245', template: { name: 'hello', language: 'en_US', components: [{ type: 'body', parameters: [{ type: 'text', text: 'Asha' }] }] } });
    expect(other).toMatchObject({ ok: true });
    expect(await send('919876543255')).toMatchObject({ ok: false, code: 368, httpStatus: 403, handling: { action: 'stop_sender' } });
    server.simulator.setFault(SENDER, null);
    expect(await send('919876543265')).toMatchObject({ ok: true });
    expect(server.simulator.requestsFor(SENDER)).toBe(5);
  });

  it('expires the token: 190 (subcode 463) from then on, until renewed', async () => {
    const { server, send } = await setUp();
    server.simulator.expireToken(SENDER);
    expect(await send('919876543215')).toMatchObject({ ok: false, code: 190, httpStatus: 401, subcode: 463, handling: { action: 'stop_sender' } });
    expect(await send('919876543225')).toMatchObject({ ok: false, code: 190 });
    server.simulator.expireToken(SENDER, false);
    expect(await send('919876543235')).toMatchObject({ ok: true });
  });
});
