import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Ajv from 'ajv';
import { parse } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { parseWebhookChanges, verifyWebhookSignature } from '../sending/providers/webhooks';
import { startSimulatorServer, type SimulatorServer } from './cloudApiSimulator';
import { SimulatorOutbox } from './outbox';

const APP_SECRET = 'simulator-app-secret';
const TOKEN = 'simulator-token';
const WABA = 'SIMULATOR_WABA';
/** Meta's OpenAPI description, beside the repository (../shared/reference). */
const META_OPENAPI = resolve(__dirname, '../../../../shared/reference/meta-whatsapp-openapi/business-messaging-api_v23.0.yaml');

async function startReceiver(): Promise<{ url: string; received: { raw: Buffer; signature: string | undefined }[]; server: Server }> {
  const received: { raw: Buffer; signature: string | undefined }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const signature = req.headers['x-hub-signature-256'];
      received.push({ raw: Buffer.concat(chunks), signature: typeof signature === 'string' ? signature : undefined });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/webhooks/whatsapp`, received, server };
}

const toClose: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of toClose.splice(0).reverse()) await close();
});

async function simulator(reviewMs = 5): Promise<{ sim: SimulatorServer; received: Awaited<ReturnType<typeof startReceiver>>['received'] }> {
  const receiver = await startReceiver();
  toClose.push(() => new Promise((done) => receiver.server.close(() => done())));
  const sim = await startSimulatorServer({ outbox: new SimulatorOutbox(), resolveTemplate: () => null, accessToken: TOKEN, reviewMs, webhook: { url: receiver.url, appSecret: APP_SECRET } });
  toClose.push(() => sim.close());
  return { sim, received: receiver.received };
}

const call = async (sim: SimulatorServer, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
  const response = await fetch(`${sim.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, ...(body !== undefined && !(body instanceof Uint8Array) ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(body === undefined ? {} : { body: body instanceof Uint8Array ? body : JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

const template = (name: string, language = 'en_US') => ({
  name,
  language,
  category: 'MARKETING',
  components: [{ type: 'BODY', text: 'Hello {{1}}', example: { body_text: [['Asha']] } }],
});

/** Waits, with a deadline, until `check` holds. */
async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 10));
  }
}

describe('the simulator of message_templates', () => {
  it.skipIf(!existsSync(META_OPENAPI))("accepts bodies that Meta's own schema for creating a template accepts, and asks for the same fields", () => {
    const spec = parse(readFileSync(META_OPENAPI, 'utf8')) as { paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: Record<string, unknown> }> } }>> };
    const schema = spec.paths['/{Version}/{WABA-ID}/message_templates']!.post!.requestBody!.content['application/json']!.schema;
    const validate = new Ajv({ strict: false }).compile(schema);
    for (const body of [template('summer_sale'), template('order_update', 'hi')]) expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
    expect(Object.keys(schema.properties as object).sort()).toEqual(['category', 'components', 'language', 'name']);
  });

  it("creates a template and answers Meta's shape {id, status, category}", async () => {
    const { sim } = await simulator(60_000);
    const created = await call(sim, 'POST', `/v23.0/${WABA}/message_templates`, template('summer_sale'));
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ id: expect.stringMatching(/^\d+$/), status: 'PENDING', category: 'MARKETING' });
  });

  it('refuses a body without a category, a bad name or a second template of the same name and language, as Meta does', async () => {
    const { sim } = await simulator(60_000);
    const path = `/v23.0/${WABA}/message_templates`;
    expect((await call(sim, 'POST', path, { ...template('x'), category: undefined })).status).toBe(400);
    expect((await call(sim, 'POST', path, template('Bad Name'))).body).toMatchObject({ error: { code: 100 } });
    expect((await call(sim, 'POST', path, template('twice'))).status).toBe(200);
    expect((await call(sim, 'POST', path, template('twice'))).body).toMatchObject({ error: { code: 100, error_subcode: 2388024 } });
    expect((await call(sim, 'POST', path, template('twice', 'hi'))).status).toBe(200);
  });

  it('refuses a call without the access token', async () => {
    const { sim } = await simulator(60_000);
    expect((await call(sim, 'GET', `/v23.0/${WABA}/message_templates`, undefined, { authorization: 'Bearer wrong' })).body).toMatchObject({ error: { code: 190 } });
  });

  it('lists templates a page at a time with before and after cursors and a next link', async () => {
    const { sim } = await simulator(60_000);
    for (let i = 0; i < 5; i++) await call(sim, 'POST', `/v23.0/${WABA}/message_templates`, template(`page_${i}`));
    const first = await call(sim, 'GET', `/v23.0/${WABA}/message_templates?limit=2`);
    const names = (page: { body: Record<string, unknown> }) => (page.body.data as { name: string }[]).map((t) => t.name);
    expect(names(first)).toEqual(['page_0', 'page_1']);
    const paging = first.body.paging as { cursors: { before: string; after: string }; next?: string; previous?: string };
    expect(paging.previous).toBeUndefined();
    const second = await call(sim, 'GET', new URL(paging.next!).pathname + new URL(paging.next!).search);
    expect(names(second)).toEqual(['page_2', 'page_3']);
    const secondPaging = second.body.paging as { cursors: { before: string; after: string } };
    expect(names(await call(sim, 'GET', `/v23.0/${WABA}/message_templates?limit=2&after=${secondPaging.cursors.after}`))).toEqual(['page_4']);
    expect(names(await call(sim, 'GET', `/v23.0/${WABA}/message_templates?limit=2&before=${secondPaging.cursors.before}`))).toEqual(['page_0', 'page_1']);
    expect(names(await call(sim, 'GET', `/v23.0/other_waba/message_templates`))).toEqual([]);
  });

  it('deletes a template by name in every language', async () => {
    const { sim } = await simulator(60_000);
    const path = `/v23.0/${WABA}/message_templates`;
    await call(sim, 'POST', path, template('gone'));
    await call(sim, 'POST', path, template('gone', 'hi'));
    await call(sim, 'POST', path, template('kept'));
    expect((await call(sim, 'DELETE', `${path}?name=gone`)).body).toEqual({ success: true });
    expect(((await call(sim, 'GET', path)).body.data as { name: string }[]).map((t) => t.name)).toEqual(['kept']);
    expect((await call(sim, 'DELETE', `${path}?name=gone`)).status).toBe(400);
  });

  it("approves after the review time, rejects a name containing 'reject' with a reason, and posts each as Meta's signed webhook", async () => {
    const { sim, received } = await simulator(5);
    const path = `/v23.0/${WABA}/message_templates`;
    const approved = await call(sim, 'POST', path, template('welcome'));
    const rejected = await call(sim, 'POST', path, template('please_reject_me'));
    await until(() => received.length >= 2, 'two review webhooks');
    for (const post of received) expect(verifyWebhookSignature(post.raw, post.signature, APP_SECRET)).toBe(true);
    const events = received.flatMap((post) => parseWebhookChanges(JSON.parse(post.raw.toString())));
    const byId = (id: unknown) => events.flatMap((c) => (c.kind === 'business' ? c.templates : [])).find((t) => t.templateId === id);
    expect(byId(approved.body.id)).toMatchObject({ kind: 'status', event: 'APPROVED', name: 'welcome', language: 'en_US', reason: null });
    expect(byId(rejected.body.id)).toMatchObject({ kind: 'status', event: 'REJECTED', name: 'please_reject_me', reason: 'INVALID_FORMAT' });
    expect(events.every((c) => c.kind === 'business' && c.wabaId === WABA)).toBe(true);
    const listed = (await call(sim, 'GET', path)).body.data as { name: string; status: string }[];
    expect(listed.map((t) => [t.name, t.status])).toEqual([
      ['welcome', 'APPROVED'],
      ['please_reject_me', 'REJECTED'],
    ]);
  });
});

describe('the simulator of the resumable upload', () => {
  it('opens a session, takes the file in parts from its offset and answers a handle', async () => {
    const { sim } = await simulator(60_000);
    const started = await call(sim, 'POST', '/v23.0/1234567890/uploads?file_name=header.png&file_length=10&file_type=image/png');
    const id = started.body.id as string;
    expect(id).toMatch(/^upload:/);
    const part = await call(sim, 'POST', `/v23.0/${id}`, new Uint8Array(6), { file_offset: '0', authorization: `OAuth ${TOKEN}` });
    expect(part.body).toEqual({ id, file_offset: 6 });
    expect((await call(sim, 'GET', `/v23.0/${id}`)).body).toEqual({ id, file_offset: 6 });
    expect((await call(sim, 'POST', `/v23.0/${id}`, new Uint8Array(4), { file_offset: '0' })).status).toBe(400);
    const done = await call(sim, 'POST', `/v23.0/${id}`, new Uint8Array(4), { file_offset: '6' });
    expect(done.body).toEqual({ h: expect.stringMatching(/^4::/) });
  });

  it('refuses a session without a length or type, and an unknown session', async () => {
    const { sim } = await simulator(60_000);
    expect((await call(sim, 'POST', '/v23.0/1234567890/uploads?file_length=10')).status).toBe(400);
    expect((await call(sim, 'POST', '/v23.0/1234567890/uploads?file_type=image/png')).status).toBe(400);
    expect((await call(sim, 'GET', '/v23.0/upload:nothing')).status).toBe(400);
  });
});
