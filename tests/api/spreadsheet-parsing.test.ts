/**
 * Spreadsheet parsing is memory-capped and bounded per user.
 *
 * The attack: a 1.3 MB .xlsx (built here, never committed) whose shared strings inflate to 120 MB
 * of rich-text entries. It passes the zip guard (under 200 MB inflated, under 100:1), and exceljs
 * caches every shared string, so reading it in the server's own thread took its resident memory
 * past 1.5 GB and answered 200. Read in a worker whose heap is capped, it is refused with 413 and
 * the worker is ended, while the server keeps answering.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillMessage, messages } from '@shared/messages';
import type { TestClient } from '../../server/test/client';
import { signedInClient } from '../../server/test/factories';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';
import { sharedStringsBomb } from '../../server/test/spreadsheetBomb';

const MB = 1024 * 1024;

function sheetForm(name: string, content: Buffer | string): FormData {
  const data = new FormData();
  data.append('file', new Blob([typeof content === 'string' ? content : new Uint8Array(content)]), name);
  return data;
}

/** Polls `check` until it holds, failing after `deadlineMs` (never a fixed wait). */
async function until(check: () => boolean, what: string, deadlineMs = 30_000): Promise<void> {
  const started = performance.now();
  while (!check()) {
    if (performance.now() - started > deadlineMs) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

interface HeldUpload {
  /** Sends the rest of the file and resolves with the answer. */
  finish(): Promise<{ status: number; body: Record<string, unknown> }>;
  /** Drops the connection mid-upload, as a closed browser tab does. */
  abort(): void;
}

/**
 * A multipart upload whose first half is sent at once and whose second half waits for `finish()`:
 * a parse held open for as long as the test likes, without sleeping.
 */
function heldUpload(server: TestServer, path: string, cookie: string, filename: string, content: string): HeldUpload {
  const boundary = 'sandeshheldupload';
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: text/csv\r\n\r\n`);
  const file = Buffer.from(content);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const half = Math.floor(file.length / 2);
  const target = new URL(path, server.url);
  const held: { request: http.ClientRequest | null; rest: Buffer } = { request: null, rest: Buffer.alloc(0) };
  const answer = new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
    const request = http.request(
      {
        method: 'POST',
        hostname: target.hostname,
        port: target.port,
        path: target.pathname,
        headers: { Cookie: cookie, 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': String(head.length + file.length + tail.length) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> }));
      },
    );
    request.on('error', reject);
    request.write(Buffer.concat([head, file.subarray(0, half)]));
    held.request = request;
    held.rest = Buffer.concat([file.subarray(half), tail]);
  });
  // A test that fails before finishing or aborting must not leave an unhandled rejection behind.
  answer.catch(() => undefined);
  return {
    finish() {
      held.request?.end(held.rest);
      return answer;
    },
    abort() {
      held.request?.destroy();
    },
  };
}

const sessionCookie = (client: TestClient) => `sandesh_session=${client.cookie('sandesh_session')}`;
const numbers = (count: number, from = 919855550000) => `Phone\n${Array.from({ length: count }, (_, i) => from + i).join('\n')}\n`;

describe.skipIf(postgresUnavailable)('spreadsheet parsing: memory-capped workers, a few at a time per user', () => {
  let server: TestServer;
  beforeAll(async () => {
    // The defaults: a 256 MB heap per parse worker, two parses per user.
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('refuses a decompression-bomb xlsx from its zip directory while the server keeps answering, and its memory stays bounded', { timeout: 240_000 }, async () => {
    const bomb = await sharedStringsBomb();
    expect(bomb.length).toBeLessThan(2 * MB);
    const { client: attacker } = await signedInClient(server);
    const { client: bystander } = await signedInClient(server);
    const peakBefore = process.resourceUsage().maxRSS;

    const attack = attacker.post('/api/whatsapp/parse-excel', sheetForm('recipients.xlsx', bomb));
    const [health, ordinary, answer] = await Promise.all([
      fetch(`${server.url}/api/health`),
      bystander.post<{ data: { rows: Record<string, string>[] } }>('/api/whatsapp/parse-excel', sheetForm('people.csv', 'Phone,Name\n919855550001,Asha\n')),
      attack,
    ]);
    expect(health.status).toBe(200);
    expect(ordinary.status).toBe(200);
    expect(ordinary.body.data.rows).toEqual([{ Phone: '919855550001', Name: 'Asha' }]);

    // Its shared strings compress past the ratio any one entry may have: refused before inflating.
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: messages.sending.fileTooLargeUnpacked, field: 'file' });
    // The parse ran in a worker, not in the server's heap: its peak stays within the worker's cap
    // and its own overhead.
    const growthMb = (process.resourceUsage().maxRSS - peakBefore) / 1024;
    expect(growthMb).toBeLessThan(768);
    await until(() => {
      const { live, idle } = server.services.spreadsheets.pool.stats();
      return live === idle;
    }, 'no worker is still parsing');

    // The attacker's next ordinary file is read as before.
    const next = await attacker.post<{ data: { valid_numbers: string[] } }>('/api/whatsapp/import-recipients', sheetForm('numbers.csv', numbers(2)));
    expect(next.status).toBe(200);
    expect(next.body.data.valid_numbers).toEqual(['919855550000', '919855550001']);
  });

  it('answers 429 to a third parse while two of the same user are in flight, and frees each slot on abort and on completion', { timeout: 120_000 }, async () => {
    const { client, user } = await signedInClient(server);
    const cookie = sessionCookie(client);
    const slots = () => server.services.spreadsheets.inFlight(user.id);

    const first = heldUpload(server, '/api/whatsapp/parse-excel', cookie, 'first.csv', numbers(2_000));
    const second = heldUpload(server, '/api/whatsapp/import-recipients', cookie, 'second.csv', numbers(3_000, 919866660000));
    await until(() => slots() === 2, 'both uploads hold a slot');

    for (const path of ['/api/whatsapp/parse-excel', '/api/whatsapp/import-recipients']) {
      const third = await client.post(path, sheetForm('third.csv', numbers(1)));
      expect(third.status, path).toBe(429);
      expect(third.body, path).toMatchObject({ error: fillMessage(messages.sending.tooManyParses, { max: 2 }), code: 'too_many_parses' });
      expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // Another user is not held up by this one.
    const { client: other } = await signedInClient(server);
    expect((await other.post('/api/whatsapp/parse-excel', sheetForm('other.csv', numbers(1)))).status).toBe(200);

    // A dropped upload gives its slot back.
    first.abort();
    await until(() => slots() === 1, 'the aborted upload gave its slot back');
    const fourth = await client.post<{ data: { rows: Record<string, string>[]; totalRows: number } }>('/api/whatsapp/parse-excel', sheetForm('fourth.csv', numbers(3)));
    expect(fourth.status).toBe(200);
    expect(fourth.body.data.rows).toEqual([{ Phone: '919855550000' }, { Phone: '919855550001' }, { Phone: '919855550002' }]);

    // The held import completes normally once its file arrives, and then frees its slot.
    const imported = await second.finish();
    expect(imported.status).toBe(200);
    expect(imported.body.data).toMatchObject({ valid_count: 3_000, invalid_count: 0 });
    await until(() => slots() === 0, 'every slot is free');
    // Failures give their slot back too.
    for (let i = 0; i < 3; i += 1) {
      const refused = await client.post('/api/whatsapp/parse-excel', sheetForm('empty.csv', 'Phone\n'));
      expect(refused.body).toMatchObject({ error: messages.sending.noRecipientsInFile });
    }
    expect(slots()).toBe(0);
  });
});
