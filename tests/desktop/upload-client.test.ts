/**
 * The desktop upload client against a real server: a 20 MB file in several parts, a
 * connection cut in the middle of a part, pause and resume, a restart of the app (a new client
 * over the same settings file), another account's upload and an expired one.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, rmSync } from 'node:fs';
import http from 'node:http';
import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { Agent, type Dispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@shared/messages';
import { ZUpload, type TUpload } from '@shared/schemas/uploads';
import type { SpreadsheetProgress } from '@shared/spreadsheets';
import { createSettingsStore } from '../../desktop/src/main/settings';
import { createUploadClient, settingsUploadStore, type UploadClient, type UploadStateStore } from '../../desktop/src/main/uploads';
import { TestClient } from '../../server/test/client';
import { ManualClock } from '../../server/test/clock';
import { buildUser } from '../../server/test/factories';
import { startTestServer, type TestServer } from '../../server/test/server';

const PART_SIZE = 512 * 1024;
const MB = 1024 * 1024;

async function sha256OfPath(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** A CSV of at least `bytes` bytes: a number column and seven more, like a prepared spreadsheet. */
async function writeCsv(file: string, bytes: number, seed: number): Promise<number> {
  const out = createWriteStream(file);
  const header = 'phone,name,city,order,amount,date,note,code\n';
  out.write(header);
  let written = header.length;
  for (let i = 0; written < bytes; i += 1) {
    const line = `9198${String(10_000_000 + i)},Name ${i},City ${i % 37},O-${seed}-${i},${(i % 997) * 3}.50,2026-11-${String((i % 28) + 1).padStart(2, '0')},note ${i % 13},C${i % 101}\n`;
    written += line.length;
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return written;
}

/** A TCP proxy in front of the server that can cut one connection after it carried `bytes` more bytes towards the server. */
async function startCuttingProxy(targetPort: number): Promise<{ port: number; cutAfter(bytes: number): void; cuts(): number; close(): Promise<void> }> {
  let armed: number | null = null;
  let cuts = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, '127.0.0.1');
    sockets.add(client).add(upstream);
    let carried = 0;
    const cutAt = armed;
    client.on('data', (chunk: Buffer) => {
      carried += chunk.length;
      if (cutAt !== null && armed === cutAt && carried > cutAt) {
        armed = null;
        cuts += 1;
        client.destroy();
        upstream.destroy();
      }
    });
    client.pipe(upstream);
    upstream.pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address() as net.AddressInfo;
  return {
    port: address.port,
    cutAfter(bytes) {
      armed = bytes;
    },
    cuts: () => cuts,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * An HTTP proxy in front of the server that answers a request itself (drained, with the given
 * status and headers) while `fault` names one for it, or cuts its connection without an answer
 * (`'reset'`), and forwards the others.
 */
async function startFaultProxy(
  targetPort: number,
  fault: (method: string, url: string) => { status: number; headers?: Record<string, string> } | 'reset' | null,
): Promise<{ port: number; faults: string[]; close(): Promise<void> }> {
  const faults: string[] = [];
  const server = http.createServer((req, res) => {
    const answer = fault(req.method ?? '', req.url ?? '');
    if (answer === 'reset') {
      faults.push(`${req.method} ${req.url} reset`);
      req.socket.destroy();
      return;
    }
    if (answer) {
      faults.push(`${req.method} ${req.url} ${answer.status}`);
      req.resume();
      req.on('end', () => res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers }).end('{"error":"busy","code":"busy"}'));
      return;
    }
    const upstream = http.request({ host: '127.0.0.1', port: targetPort, method: req.method, path: req.url, headers: req.headers }, (answerFromServer) => {
      res.writeHead(answerFromServer.statusCode ?? 502, answerFromServer.headers);
      answerFromServer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.keepAliveTimeout = 1_000;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as net.AddressInfo).port,
    faults,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** An Agent that records the part numbers it PUTs, per upload id. */
function countingDispatcher(): { dispatcher: Dispatcher; agent: Agent; partsPut: (uploadId: string) => number[]; lastUploadId: () => string | undefined } {
  const agent = new Agent({ keepAliveTimeout: 10_000 });
  const puts: { uploadId: string; n: number }[] = [];
  const dispatcher = agent.compose((dispatch) => (opts, handler) => {
    const match = /^\/api\/uploads\/([^/]+)\/parts\/(\d+)$/.exec(opts.path);
    if (opts.method === 'PUT' && match) puts.push({ uploadId: match[1]!, n: Number(match[2]) });
    return dispatch(opts, handler);
  });
  return { dispatcher, agent, partsPut: (uploadId) => puts.filter((p) => p.uploadId === uploadId).map((p) => p.n), lastUploadId: () => puts.at(-1)?.uploadId };
}

describe('desktop upload client', () => {
  let server: TestServer;
  let dir: string;
  const clock = new ManualClock();
  const agents: Agent[] = [];

  beforeAll(async () => {
    server = await startTestServer({ UPLOAD_PART_SIZE: '512kb' }, { uploadClock: clock.now });
    dir = await mkdtemp(path.join(tmpdir(), 'sandesh-upload-client-'));
  });
  afterAll(async () => {
    await Promise.all(agents.map((agent) => agent.close()));
    await server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** A desktop sign-in: the bearer token the app keeps in the keychain. */
  async function desktopToken(): Promise<string> {
    const user = await buildUser(server);
    const login = await new TestClient(server.url).post('/api/auth/login', { username: user.username, password: user.plainPassword }, { 'X-Client': 'desktop' });
    expect(login.status).toBe(200);
    return login.body.token as string;
  }

  async function serverState(token: string, uploadId: string): Promise<{ status: number; upload: TUpload | null }> {
    const res = await new TestClient(server.url).useBearer(token).get(`/api/uploads/${uploadId}`);
    return { status: res.status, upload: res.status === 200 ? ZUpload.parse(res.body) : null };
  }

  let fileNumber = 0;
  async function preparedFile(bytes: number): Promise<{ preparedId: string; path: string; filename: string; size: number }> {
    fileNumber += 1;
    const file = path.join(dir, `prepared-${fileNumber}.csv`);
    const size = await writeCsv(file, bytes, fileNumber);
    return { preparedId: `prepared-${fileNumber}`, path: file, filename: `recipients-${fileNumber}.csv`, size };
  }

  function settingsStore(name: string): UploadStateStore {
    return settingsUploadStore(createSettingsStore({ dir: path.join(dir, name), env: {} }));
  }

  function client(options: { token: () => string; store: UploadStateStore; port?: number; parallelParts?: number }): { client: UploadClient; partsPut: (uploadId: string) => number[]; lastUploadId: () => string | undefined } {
    const counting = countingDispatcher();
    agents.push(counting.agent);
    const port = options.port ?? Number(new URL(server.url).port);
    return {
      client: createUploadClient({
        serverUrl: async () => `http://127.0.0.1:${port}`,
        authHeaders: async () => ({ Authorization: `Bearer ${options.token()}` }),
        store: options.store,
        dispatcher: counting.dispatcher,
        retry: { attempts: 5, baseDelayMs: 10 },
        ...(options.parallelParts ? { parallelParts: options.parallelParts } : {}),
      }),
      partsPut: counting.partsPut,
      lastUploadId: counting.lastUploadId,
    };
  }

  it('uploads a 20 MB file in parts with progress, completes it and forgets it', async () => {
    const token = await desktopToken();
    const source = await preparedFile(20 * MB);
    const store = settingsStore('twenty');
    const { client: uploads, partsPut } = client({ token: () => token, store });
    const events: SpreadsheetProgress[] = [];
    const result = await uploads.upload(source, (progress) => events.push(progress));

    expect(result).toMatchObject({ preparedId: source.preparedId, state: 'complete', sentBytes: source.size, size: source.size });
    const partCount = Math.ceil(source.size / PART_SIZE);
    expect(partCount).toBeGreaterThan(30);
    expect(partsPut(result.uploadId)).toEqual(Array.from({ length: partCount }, (_, i) => i + 1));
    const { upload } = await serverState(token, result.uploadId);
    expect(upload).toMatchObject({ status: 'complete', size: source.size });
    expect(await sha256OfPath(server.services.uploads.files.filePath(result.uploadId))).toBe(await sha256OfPath(source.path));

    // An event per part at least, rising, ending at 100 %.
    expect(events.length).toBeGreaterThanOrEqual(partCount);
    expect(events.every((e) => e.phase === 'uploading' && e.fileId === source.preparedId && e.totalBytes === source.size)).toBe(true);
    for (let i = 1; i < events.length; i += 1) expect(events[i]!.bytes).toBeGreaterThanOrEqual(events[i - 1]!.bytes);
    expect(events.at(-1)).toMatchObject({ bytes: source.size, percent: 100 });
    expect(await uploads.pending()).toEqual([]);
    expect(await store.load()).toEqual([]);
  });

  it('tries a part again after the connection is cut in its middle, and the file arrives whole', async () => {
    const token = await desktopToken();
    const source = await preparedFile(6 * MB);
    const proxy = await startCuttingProxy(Number(new URL(server.url).port));
    try {
      // The cut comes in the third part's bytes, whatever connection carries them.
      proxy.cutAfter(2 * PART_SIZE + PART_SIZE / 2);
      const { client: uploads, partsPut } = client({ token: () => token, store: settingsStore('cut'), port: proxy.port });
      const result = await uploads.upload(source, () => undefined);

      expect(result.state, result.error).toBe('complete');
      expect(proxy.cuts()).toBe(1);
      const parts = partsPut(result.uploadId);
      // The cut part went twice; every part arrived.
      expect(parts.length).toBe(Math.ceil(source.size / PART_SIZE) + 1);
      expect(new Set(parts).size).toBe(Math.ceil(source.size / PART_SIZE));
      expect(await sha256OfPath(server.services.uploads.files.filePath(result.uploadId))).toBe(await sha256OfPath(source.path));
    } finally {
      await proxy.close();
    }
  });

  it('waits as Retry-After asks on 429, tries again after 503, and completes', async () => {
    const token = await desktopToken();
    const source = await preparedFile(2 * MB);
    const seen = new Set<string>();
    const proxy = await startFaultProxy(Number(new URL(server.url).port), (method, url) => {
      const once = (key: string, answer: { status: number; headers?: Record<string, string> }) => {
        if (seen.has(key)) return null;
        seen.add(key);
        return answer;
      };
      if (method === 'PUT' && url.endsWith('/parts/2')) return once('part 2', { status: 429, headers: { 'retry-after': '1' } });
      if (method === 'PUT' && url.endsWith('/parts/3')) return once('part 3', { status: 503 });
      if (method === 'POST' && url.endsWith('/complete')) return once('complete', { status: 502 });
      return null;
    });
    try {
      const { client: uploads, partsPut } = client({ token: () => token, store: settingsStore('faults'), port: proxy.port });
      const result = await uploads.upload(source, () => undefined);
      expect(result.state, result.error).toBe('complete');
      expect(proxy.faults.map((f) => f.replace(/\/api\/uploads\/[^/]+/, ''))).toEqual(['PUT /parts/2 429', 'PUT /parts/3 503', 'POST /complete 502']);
      const partCount = Math.ceil(source.size / PART_SIZE);
      expect(partsPut(result.uploadId)).toEqual([1, 2, 2, 3, 3, ...Array.from({ length: partCount - 3 }, (_, i) => i + 4)]);
    } finally {
      await proxy.close();
    }
  });

  it('sends again the parts the server names missing at completion, once, then completes', async () => {
    const token = await desktopToken();
    const source = await preparedFile(3 * MB);
    const { client: uploads, partsPut, lastUploadId } = client({ token: () => token, store: settingsStore('missing') });
    let removed = false;
    const result = await uploads.upload(source, (progress) => {
      // Part 1 goes missing on the server after it was answered (a disk the server lost, say).
      if (!removed && progress.bytes >= 3 * PART_SIZE) {
        removed = true;
        rmSync(path.join(server.dataDir, 'uploads', lastUploadId()!, 'part-1'));
      }
    });
    expect(removed).toBe(true);
    expect(result.state, result.error).toBe('complete');
    const partCount = Math.ceil(source.size / PART_SIZE);
    expect(partsPut(result.uploadId)).toEqual([...Array.from({ length: partCount }, (_, i) => i + 1), 1]);
    expect(await sha256OfPath(server.services.uploads.files.filePath(result.uploadId))).toBe(await sha256OfPath(source.path));
  });

  it('pauses (aborting the part in flight), lists the upload as paused, and resumes with only the missing parts', async () => {
    const token = await desktopToken();
    const source = await preparedFile(6 * MB);
    const { client: uploads, partsPut } = client({ token: () => token, store: settingsStore('pause') });
    const paused = await uploads.upload(source, (progress) => {
      if (progress.bytes >= 3 * PART_SIZE) uploads.pause(source.preparedId);
    });
    expect(paused.state).toBe('paused');
    expect(paused.error).toBeUndefined();
    const before = (await serverState(token, paused.uploadId)).upload!;
    const partCount = Math.ceil(source.size / PART_SIZE);
    // Bytes counted include the part in flight, so at least two parts had been answered.
    expect(before.receivedParts.length).toBeGreaterThanOrEqual(2);
    expect(before.receivedParts.length).toBeLessThan(partCount);
    expect(await uploads.pending()).toEqual([expect.objectContaining({ preparedId: source.preparedId, uploadId: paused.uploadId, state: 'paused' })]);

    const sentBefore = partsPut(paused.uploadId).length;
    const resumed = await uploads.resume(source.preparedId, () => undefined);
    expect(resumed).toMatchObject({ state: 'complete', uploadId: paused.uploadId });
    const missing = Array.from({ length: partCount }, (_, i) => i + 1).filter((n) => !before.receivedParts.includes(n));
    expect(partsPut(paused.uploadId).slice(sentBefore)).toEqual(missing);
    expect(await uploads.pending()).toEqual([]);
  });

  it('resumes after a restart: a new client over the same settings sends only the parts the server lacks', async () => {
    const token = await desktopToken();
    const source = await preparedFile(6 * MB);
    const settings = settingsStore('restart');
    // The first run dies mid-upload: after the upload is recorded, its store never hears from it again.
    let dead = false;
    const dying: UploadStateStore = { load: () => settings.load(), save: async (uploads) => (dead ? undefined : settings.save(uploads)) };
    const first = client({ token: () => token, store: dying });
    const stopped = await first.client.upload(source, (progress) => {
      if (progress.bytes >= 4 * PART_SIZE) {
        dead = true;
        first.client.pause(source.preparedId);
      }
    });
    expect(stopped.state).toBe('paused');
    expect(await settings.load()).toEqual([expect.objectContaining({ preparedId: source.preparedId, uploadId: stopped.uploadId, state: 'uploading' })]);

    const second = client({ token: () => token, store: settings });
    expect(await second.client.pending()).toEqual([expect.objectContaining({ preparedId: source.preparedId, uploadId: stopped.uploadId, state: 'paused' })]);
    const before = (await serverState(token, stopped.uploadId)).upload!;
    expect(before.receivedParts.length).toBeGreaterThanOrEqual(3);
    const resumed = await second.client.resume(source.preparedId, () => undefined);
    expect(resumed).toMatchObject({ state: 'complete', uploadId: stopped.uploadId });
    const partCount = Math.ceil(source.size / PART_SIZE);
    expect(second.partsPut(stopped.uploadId)).toEqual(Array.from({ length: partCount }, (_, i) => i + 1).filter((n) => !before.receivedParts.includes(n)));
    expect(await sha256OfPath(server.services.uploads.files.filePath(stopped.uploadId))).toBe(await sha256OfPath(source.path));
    expect(await settings.load()).toEqual([]);
  });

  it("stops with a clear error on another account's upload, and a resume starts the file again for the account signed in", async () => {
    const owner = await desktopToken();
    const other = await desktopToken();
    let token = owner;
    const source = await preparedFile(3 * MB);
    const store = settingsStore('other-account');
    const { client: uploads } = client({ token: () => token, store });
    const failed = await uploads.upload(source, (progress) => {
      // Another account signs in on this computer while the upload runs.
      if (progress.bytes >= 2 * PART_SIZE) token = other;
    });
    expect(failed).toMatchObject({ state: 'failed', error: messages.uploadClient.notFound });
    expect(await uploads.pending()).toEqual([expect.objectContaining({ preparedId: source.preparedId, state: 'failed', error: messages.uploadClient.notFound })]);
    expect((await serverState(other, failed.uploadId)).status).toBe(404);

    const again = await uploads.resume(source.preparedId, () => undefined);
    expect(again.state, again.error).toBe('complete');
    expect(again.uploadId).not.toBe(failed.uploadId);
    expect((await serverState(other, again.uploadId)).upload).toMatchObject({ status: 'complete' });
    expect((await serverState(owner, failed.uploadId)).upload?.status).toBe('receiving');
  });

  it("says the session ended when a part's answer is lost and the upload's state says so, instead of trying the part five times", async () => {
    // A server refusing a part before reading it closes the connection, and the reset can lose
    // the refusal (seen under load); here every part after the first loses its answer.
    let token = await desktopToken();
    const source = await preparedFile(2 * MB);
    const proxy = await startFaultProxy(Number(new URL(server.url).port), (method, url) => (method === 'PUT' && !url.endsWith('/parts/1') ? 'reset' : null));
    try {
      const { client: uploads, partsPut } = client({ token: () => token, store: settingsStore('session-ends'), port: proxy.port });
      const failed = await uploads.upload(source, (progress) => {
        // The session ends (signed out elsewhere, or expired) once the first part is in.
        if (progress.bytes >= PART_SIZE) token = 'a-session-that-ended';
      });
      expect(failed).toMatchObject({ state: 'failed', error: messages.uploadClient.sessionEnded });
      expect(partsPut(failed.uploadId)).toEqual([1, 2]);
      expect(proxy.faults).toEqual([`PUT /api/uploads/${failed.uploadId}/parts/2 reset`]);
    } finally {
      await proxy.close();
    }
  });

  it('sends two parts at once when asked, and the file arrives whole', async () => {
    const token = await desktopToken();
    const source = await preparedFile(4 * MB);
    const { client: uploads, partsPut } = client({ token: () => token, store: settingsStore('two-at-once'), parallelParts: 2 });
    const result = await uploads.upload(source, () => undefined);
    expect(result.state, result.error).toBe('complete');
    const partCount = Math.ceil(source.size / PART_SIZE);
    expect([...partsPut(result.uploadId)].sort((a, b) => a - b)).toEqual(Array.from({ length: partCount }, (_, i) => i + 1));
    expect(await sha256OfPath(server.services.uploads.files.filePath(result.uploadId))).toBe(await sha256OfPath(source.path));
  });

  it('starts again, deleting the old upload, when the file changed since it was paused', async () => {
    const token = await desktopToken();
    const source = await preparedFile(3 * MB);
    const { client: uploads } = client({ token: () => token, store: settingsStore('changed') });
    const paused = await uploads.upload(source, (progress) => {
      if (progress.bytes >= 2 * PART_SIZE) uploads.pause(source.preparedId);
    });
    expect(paused.state).toBe('paused');
    await appendFile(source.path, '919810999999,Late row,City,O-late,1.50,2026-11-30,late,C1\n');

    const resumed = await uploads.resume(source.preparedId, () => undefined);
    expect(resumed.state, resumed.error).toBe('complete');
    expect(resumed.uploadId).not.toBe(paused.uploadId);
    expect(resumed.size).toBeGreaterThan(source.size);
    expect((await serverState(token, paused.uploadId)).status).toBe(404);
    expect(await sha256OfPath(server.services.uploads.files.filePath(resumed.uploadId))).toBe(await sha256OfPath(source.path));
  });

  it('answers a clear error when the session has ended', async () => {
    const source = await preparedFile(MB);
    const { client: uploads } = client({ token: () => 'not-a-session-token-at-all-0123456789', store: settingsStore('signed-out') });
    const result = await uploads.upload(source, () => undefined);
    expect(result).toMatchObject({ state: 'failed', error: messages.uploadClient.sessionEnded, uploadId: '' });
  });

  // Last: it moves the server's upload clock past every upload's expiry.
  it('starts an expired upload again from scratch', async () => {
    const token = await desktopToken();
    const source = await preparedFile(3 * MB);
    const { client: uploads, partsPut } = client({ token: () => token, store: settingsStore('expired') });
    const paused = await uploads.upload(source, (progress) => {
      if (progress.bytes >= 2 * PART_SIZE) uploads.pause(source.preparedId);
    });
    expect(paused.state).toBe('paused');
    clock.advance(25 * 3_600_000);
    expect((await serverState(token, paused.uploadId)).status).toBe(404);

    const resumed = await uploads.resume(source.preparedId, () => undefined);
    expect(resumed.state, resumed.error).toBe('complete');
    expect(resumed.uploadId).not.toBe(paused.uploadId);
    const partCount = Math.ceil(source.size / PART_SIZE);
    expect(partsPut(resumed.uploadId)).toEqual(Array.from({ length: partCount }, (_, i) => i + 1));
  });
});
