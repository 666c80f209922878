import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@shared/messages';
import { TemplateApi, TemplateApiError, type TemplateAccount } from './templateApi';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A provider that answers each request with the next canned answer, and records what it got. */
async function provider(answers: { status: number; body: unknown }[]): Promise<{ url: string; seen: Seen[]; server: Server }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() });
      const answer = answers.shift() ?? { status: 500, body: { error: { message: 'no answer left' } } };
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

const cloud = (base: string, appId: string | null = '4242'): TemplateAccount => ({ kind: 'cloud_api', base, version: 'v23.0', wabaId: 'waba1', accessToken: 'EAAG-token', appId });
const channel = (base: string): TemplateAccount => ({ kind: 'channel', base, apiKey: 'd360-key' });
const body = { name: 'order_update', language: 'en_US', category: 'UTILITY' as const, parameter_format: 'positional' as const, components: [{ type: 'BODY' as const, text: 'Your order has shipped' }] };

describe('TemplateApi', () => {
  const api = new TemplateApi({ timeoutMs: 5_000 });
  const servers: Server[] = [];
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'template-api-'));
  });
  afterAll(async () => {
    await api.close();
    for (const server of servers) await new Promise((done) => server.close(done));
  });
  const start = async (answers: { status: number; body: unknown }[]) => {
    const started = await provider(answers);
    servers.push(started.server);
    return started;
  };

  it("creates at Meta's message_templates with the bearer token and reads Meta's answer", async () => {
    const meta = await start([{ status: 200, body: { id: '1234567890', status: 'PENDING', category: 'UTILITY' } }]);
    expect(await api.create(cloud(meta.url), body)).toEqual({ id: '1234567890', status: 'PENDING', category: 'UTILITY' });
    expect(meta.seen[0]).toMatchObject({ method: 'POST', url: '/v23.0/waba1/message_templates' });
    expect(meta.seen[0]!.headers.authorization).toBe('Bearer EAAG-token');
    expect(JSON.parse(meta.seen[0]!.body)).toEqual(body);
  });

  it("turns a 4xx into a refusal carrying Meta's words for the user, its code and subcode", async () => {
    const meta = await start([
      { status: 400, body: { error: { message: '(#100) Invalid parameter', type: 'OAuthException', code: 100, error_subcode: 2388024, error_user_msg: 'Content in this language already exists' } } },
      { status: 400, body: { error: { message: '(#100) Invalid parameter', code: 100 } } },
    ]);
    const refused = await api.create(cloud(meta.url), body).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TemplateApiError);
    expect(refused).toMatchObject({ kind: 'refused', message: 'Content in this language already exists', code: 100, subcode: 2388024 });
    await expect(api.create(cloud(meta.url), body)).rejects.toMatchObject({ kind: 'refused', message: '(#100) Invalid parameter' });
  });

  it('turns a 5xx and an address nobody answers into unavailable', async () => {
    const meta = await start([{ status: 503, body: { error: { message: 'Service temporarily unavailable', code: 2 } } }]);
    await expect(api.create(cloud(meta.url), body)).rejects.toMatchObject({ kind: 'unavailable', message: 'Service temporarily unavailable' });
    await expect(api.create(cloud('http://127.0.0.1:9'), body)).rejects.toMatchObject({ kind: 'unavailable' });
  });

  it("uploads a header sample through the app's resumable upload and answers the handle", async () => {
    const file = join(dir, 'sample.png');
    writeFileSync(file, Buffer.from('not-really-a-png'));
    const meta = await start([
      { status: 200, body: { id: 'upload:MTphdHRhY2g' } },
      { status: 200, body: { h: '4::aW1hZ2UvcG5n:ARhandle' } },
    ]);
    expect(await api.uploadHeaderSample(cloud(meta.url), { path: file, mime: 'image/png', size: 16 })).toBe('4::aW1hZ2UvcG5n:ARhandle');
    expect(meta.seen[0]).toMatchObject({ method: 'POST', url: '/v23.0/4242/uploads?file_length=16&file_type=image%2Fpng' });
    expect(meta.seen[1]).toMatchObject({ method: 'POST', url: '/v23.0/upload:MTphdHRhY2g', body: 'not-really-a-png' });
    expect(meta.seen[1]!.headers).toMatchObject({ authorization: 'OAuth EAAG-token', file_offset: '0' });
  });

  it('refuses to upload for a Cloud API account without the app id, with the catalogue text', async () => {
    await expect(api.uploadHeaderSample(cloud('http://127.0.0.1:9', null), { path: '/nowhere', mime: 'image/png', size: 1 })).rejects.toMatchObject({
      kind: 'unavailable',
      message: messages.templates.metaAppIdMissing,
    });
  });

  it("pages Meta's list by its after cursor, and stops where Meta gives no next page", async () => {
    const row = { id: '1', name: 'welcome', language: 'en_US', status: 'APPROVED', category: 'MARKETING', quality_score: { score: 'GREEN' }, components: [{ type: 'BODY', text: 'Hi' }] };
    const meta = await start([
      { status: 200, body: { data: [row], paging: { cursors: { before: 'b1', after: 'a1' }, next: 'https://graph.facebook.com/next' } } },
      { status: 200, body: { data: [{ ...row, id: '2', status: 'REJECTED', rejected_reason: 'INVALID_FORMAT', quality_score: undefined }], paging: { cursors: { before: 'b2', after: 'a2' } } } },
    ]);
    const first = await api.listPage(cloud(meta.url), null);
    expect(first).toEqual({ templates: [{ id: '1', name: 'welcome', language: 'en_US', status: 'APPROVED', category: 'MARKETING', quality: 'GREEN', components: row.components, rejectedReason: null }], next: 'a1' });
    const second = await api.listPage(cloud(meta.url), 'a1');
    expect(second.next).toBeNull();
    expect(second.templates[0]).toMatchObject({ id: '2', status: 'REJECTED', rejectedReason: 'INVALID_FORMAT', quality: null });
    expect(meta.seen[1]!.url).toContain('after=a1');
    expect(meta.seen[1]!.url).toContain('fields=');
  });

  it("speaks 360dialog's layout for a channel account: its key, limit and offset paging, delete by name in the path", async () => {
    const dialog = await start([
      { status: 200, body: { id: '99', status: 'submitted', category: 'UTILITY' } },
      { status: 200, body: { count: 1, limit: 100, offset: 0, total: 1, waba_templates: [{ id: '99', name: 'order_update', language: 'en_US', status: 'approved', category: 'UTILITY', components: [] }] } },
      { status: 200, body: { success: true } },
    ]);
    expect(await api.create(channel(dialog.url), body)).toEqual({ id: '99', status: 'SUBMITTED', category: 'UTILITY' });
    expect(dialog.seen[0]).toMatchObject({ method: 'POST', url: '/v1/configs/templates' });
    expect(dialog.seen[0]!.headers['d360-api-key']).toBe('d360-key');
    expect(dialog.seen[0]!.headers.authorization).toBeUndefined();
    const page = await api.listPage(channel(dialog.url), null);
    expect(page).toMatchObject({ next: null, templates: [{ id: '99', status: 'APPROVED' }] });
    expect(dialog.seen[1]!.url).toBe('/v1/configs/templates?limit=100&offset=0');
    await api.deleteByName(channel(dialog.url), 'order_update');
    expect(dialog.seen[2]).toMatchObject({ method: 'DELETE', url: '/v1/configs/templates/order_update' });
  });
});
