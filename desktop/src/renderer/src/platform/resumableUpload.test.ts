import { describe, expect, it } from 'vitest';
import { bytesReceived, partRange, partsToSend } from '@shared/uploadParts';
import {
  readSavedUpload,
  retryDelayMs,
  sha256Hex,
  uploadResumable,
  uploadStateKey,
  type UploadDependencies,
  type UploadStorage,
} from './resumableUpload';

const NOW = new Date('2026-11-24T10:00:00Z');
const LATER = '2026-11-25T10:00:00.000Z';

function memoryStorage(): UploadStorage & { items: Map<string, string> } {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  };
}

/**
 * The uploads API as the server answers it, in memory: parts kept by number, a part answered with
 * a dropped connection while `failNext` says so, completion checking parts and checksum.
 */
function fakeServer(partSize: number) {
  const uploads = new Map<string, { size: number; sha256: string; parts: Map<number, Uint8Array>; partCount: number }>();
  const calls: string[] = [];
  const state = { failNext: 0, created: 0 };
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  const fetchImpl = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    calls.push(`${method} ${url}`);
    if (method === 'POST' && url === '/api/uploads') {
      const body = JSON.parse(String(init?.body)) as { size: number; sha256: string };
      state.created += 1;
      const id = `00000000-0000-4000-8000-00000000000${state.created}`;
      const partCount = Math.ceil(body.size / partSize);
      uploads.set(id, { size: body.size, sha256: body.sha256, parts: new Map(), partCount });
      return json(201, { id, partSize, partCount, expiresAt: LATER });
    }
    const match = /^\/api\/uploads\/([^/]+)(?:\/(parts)\/(\d+)|\/(complete))?$/.exec(url);
    const upload = match ? uploads.get(decodeURIComponent(match[1] ?? '')) : undefined;
    if (!match || !upload) return json(404, { error: 'This upload does not exist or has expired. Please start it again.' });
    const id = decodeURIComponent(match[1] ?? '');
    if (match[2] === 'parts') {
      if (state.failNext > 0) {
        state.failNext -= 1;
        throw new TypeError('Failed to fetch');
      }
      const bytes = new Uint8Array(await (init?.body as Blob).arrayBuffer());
      upload.parts.set(Number(match[3]), bytes);
      return json(200, { n: Number(match[3]), size: bytes.length });
    }
    if (match[4] === 'complete') {
      const missing = partsToSend(upload.partCount, [...upload.parts.keys()]);
      if (missing.length > 0) return json(409, { error: 'Some parts have not arrived yet', code: 'upload_incomplete', missingParts: missing });
      const whole = new Blob([...[...upload.parts.entries()].sort((a, b) => a[0] - b[0]).map(([, bytes]) => bytes as BlobPart)]);
      if ((await sha256Hex(whole)) !== upload.sha256) return json(422, { error: 'checksum' });
      return json(200, { id, rows: 3, columns: ['Mobile'], sample: [] });
    }
    return json(200, { id, filename: 'f', size: upload.size, partSize, partCount: upload.partCount, receivedParts: [...upload.parts.keys()].sort(), status: 'receiving', expiresAt: LATER });
  };
  return { fetch: fetchImpl as typeof fetch, calls, state, uploads };
}

function deps(server: ReturnType<typeof fakeServer>, storage: UploadStorage, waits: number[] = []): UploadDependencies {
  return { fetch: server.fetch, storage, sleep: (ms) => (waits.push(ms), Promise.resolve()), now: () => NOW, baseUrl: '' };
}

const bytes = (length: number) => new Blob([Uint8Array.from({ length }, (_, i) => i % 251)]);

describe('part planning', () => {
  it('cuts a file in parts of the server size, the last one holding the remainder', () => {
    expect(partRange(1, 10, 25)).toEqual({ start: 0, end: 10 });
    expect(partRange(3, 10, 25)).toEqual({ start: 20, end: 25 });
    expect(bytesReceived([1, 3, 3], 10, 25)).toBe(15);
  });

  it('sends only the parts that have not arrived, in order', () => {
    expect(partsToSend(5, [2, 4])).toEqual([1, 3, 5]);
    expect(partsToSend(2, [1, 2])).toEqual([]);
  });

  it('waits longer before each new attempt, up to 8 s', () => {
    expect([2, 3, 4, 9].map(retryDelayMs)).toEqual([500, 1000, 2000, 8000]);
  });

  it('resumes only a well-formed, unexpired state of a file of the same size', () => {
    const state = JSON.stringify({ uploadId: 'u1', size: 25, partSize: 10, partCount: 3, expiresAt: LATER });
    expect(readSavedUpload(state, 25, NOW)?.uploadId).toBe('u1');
    expect(readSavedUpload(state, 26, NOW)).toBeNull();
    expect(readSavedUpload(state, 25, new Date(LATER))).toBeNull();
    expect(readSavedUpload('{not json', 25, NOW)).toBeNull();
    expect(readSavedUpload(JSON.stringify({ uploadId: 'u1' }), 25, NOW)).toBeNull();
    expect(readSavedUpload(null, 25, NOW)).toBeNull();
  });
});

describe('uploadResumable', () => {
  it('uploads every part, completes, and forgets the kept state', async () => {
    const server = fakeServer(10);
    const storage = memoryStorage();
    const seen: number[] = [];
    const outcome = await uploadResumable(bytes(25), 'rows.csv.gz', deps(server, storage), { shouldPause: () => false, onProgress: (p) => seen.push(p.sentBytes) });
    expect(outcome.state).toBe('complete');
    expect(seen).toEqual([0, 10, 20, 25]);
    expect(server.calls.filter((call) => call.startsWith('PUT'))).toHaveLength(3);
    expect(storage.items.size).toBe(0);
  });

  it('sends a part again after a dropped connection', async () => {
    const server = fakeServer(10);
    server.state.failNext = 2;
    const waits: number[] = [];
    const outcome = await uploadResumable(bytes(25), 'rows.csv.gz', deps(server, memoryStorage(), waits), { shouldPause: () => false, onProgress: () => undefined });
    expect(outcome.state).toBe('complete');
    expect(waits).toEqual([500, 1000]);
  });

  it("stops with the server's refusal when a part's answer is lost and the upload's state is refused", async () => {
    // A server refusing a part before reading it closes the connection, and the reset can lose
    // the refusal: the session ended here, and only a request without a body gets its answer back.
    const server = fakeServer(10);
    server.state.failNext = 10;
    const signedOut: typeof fetch = async (input, init) =>
      (init?.method ?? 'GET') === 'GET' && String(input).startsWith('/api/uploads/')
        ? new Response(JSON.stringify({ error: 'Please sign in again.' }), { status: 401, headers: { 'Content-Type': 'application/json' } })
        : server.fetch(input, init);
    const waits: number[] = [];
    await expect(
      uploadResumable(bytes(25), 'rows.csv.gz', { ...deps(server, memoryStorage(), waits), fetch: signedOut }, { shouldPause: () => false, onProgress: () => undefined }),
    ).rejects.toMatchObject({ message: 'Please sign in again.', status: 401 });
    expect(server.calls.filter((call) => call.startsWith('PUT'))).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('stops as failed when a part keeps failing, keeping the state to resume from', async () => {
    const server = fakeServer(10);
    server.state.failNext = 10;
    const storage = memoryStorage();
    await expect(uploadResumable(bytes(25), 'rows.csv.gz', deps(server, storage), { shouldPause: () => false, onProgress: () => undefined })).rejects.toThrow(
      'Part 1 could not be sent after 4 attempts.',
    );
    expect(storage.items.size).toBe(1);
  });

  it('pauses between parts and a later call with the same file continues from the next part', async () => {
    const server = fakeServer(10);
    const storage = memoryStorage();
    const blob = bytes(25);
    let parts = 0;
    const paused = await uploadResumable(blob, 'rows.csv.gz', deps(server, storage), { shouldPause: () => parts >= 1, onProgress: (p) => (parts = p.partsDone) });
    expect(paused).toMatchObject({ state: 'paused', sentBytes: 10 });

    // A reload: a new call with only the kept state in common.
    const progress: { sentBytes: number; resumedFrom: number | null }[] = [];
    const resumed = await uploadResumable(blob, 'rows.csv.gz', deps(server, storage), { shouldPause: () => false, onProgress: (p) => progress.push(p) });
    expect(resumed.state).toBe('complete');
    expect(progress[0]).toEqual(expect.objectContaining({ sentBytes: 10, resumedFrom: 2 }));
    expect(server.state.created).toBe(1);
    expect(server.calls.filter((call) => call.startsWith('PUT'))).toHaveLength(3);
  });

  it('starts again when the kept upload has gone from the server', async () => {
    const server = fakeServer(10);
    const storage = memoryStorage();
    const blob = bytes(12);
    storage.setItem(uploadStateKey(await sha256Hex(blob)), JSON.stringify({ uploadId: 'gone', size: 12, partSize: 10, partCount: 2, expiresAt: LATER }));
    const outcome = await uploadResumable(blob, 'rows.csv.gz', deps(server, storage), { shouldPause: () => false, onProgress: () => undefined });
    expect(outcome.state).toBe('complete');
    expect(server.state.created).toBe(1);
  });

  it('sends the parts the server names as missing when completing', async () => {
    const server = fakeServer(10);
    const storage = memoryStorage();
    const blob = bytes(25);
    let dropped = false;
    const dropping: typeof fetch = async (input, init) => {
      const answer = await server.fetch(input, init);
      // The server loses part 2 once, after answering it.
      if (!dropped && String(input).endsWith('/parts/3')) {
        dropped = true;
        for (const upload of server.uploads.values()) upload.parts.delete(2);
      }
      return answer;
    };
    const outcome = await uploadResumable(blob, 'rows.csv.gz', { ...deps(server, storage), fetch: dropping }, { shouldPause: () => false, onProgress: () => undefined });
    expect(outcome.state).toBe('complete');
    expect(server.calls.filter((call) => call.endsWith('/parts/2'))).toHaveLength(2);
  });

  it('reports the parse as queued, with its place, while completing waits for the server', async () => {
    const server = fakeServer(10);
    const places = [{ state: 'queued', position: 2 }, { state: 'queued', position: 1 }, { state: 'parsing' }];
    let asked = 0;
    let release = () => undefined as void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const fetchImpl = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
      const url = String(input);
      if ((init?.method ?? 'GET') === 'GET' && /^\/api\/uploads\/[^/]+$/.test(url)) {
        const upload = (await (await server.fetch(input, init)).json()) as Record<string, unknown>;
        const parse = places[Math.min(asked, places.length - 1)];
        asked += 1;
        // Completing answers once the server has been asked about every place.
        if (asked > places.length) release();
        return new Response(JSON.stringify({ ...upload, parse }), { status: 200, headers: { 'Content-Type': 'application/json' } });
      }
      if (url.endsWith('/complete')) await released;
      return server.fetch(input, init);
    };
    const seen: unknown[] = [];
    const outcome = await uploadResumable(
      bytes(25),
      'a.csv.gz',
      { ...deps(server, memoryStorage()), fetch: fetchImpl as typeof fetch, sleep: () => new Promise((resolve) => setTimeout(resolve, 1)) },
      { shouldPause: () => false, onProgress: () => undefined, onParse: (parse) => seen.push(parse) },
    );
    expect(outcome.state).toBe('complete');
    expect(seen.slice(0, 3)).toEqual(places);
  });
});
