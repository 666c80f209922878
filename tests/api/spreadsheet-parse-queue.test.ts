/**
 * Spreadsheet parses are bounded across the instance, not only per user: six parses of a large
 * workbook by three users (two each, the per-user limit) run at most SPREADSHEET_PARSES_MAX at once,
 * the rest wait first in, first out and say so (`queued`, with their place) on `GET
 * /api/uploads/{id}`, and every one finishes. Before the bound, six such parses ran together and
 * each held a worker with its own copy of the file and its own heap (866 MB to 2,876 MB in the
 * report that asked for this).
 *
 * The workbook is generated here (a few MB, never committed). The process's resident memory peak is
 * logged as a measure, not asserted: this server shares its process with the test runner.
 */
import { createHash } from 'node:crypto';
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZUpload, ZUploadCompleted, ZUploadCreated, type TUploadParse } from '@shared/schemas/uploads';
import type { TestClient } from '../../server/test/client';
import { signedInClient } from '../../server/test/factories';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';

const MB = 1024 * 1024;
const ROWS = 80_000;
const PART_SIZE = 4 * MB;
const LIMIT = 2;

/** A workbook of ROWS recipients in several columns, written the way Excel writes one (shared strings). */
async function largeWorkbook(): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  const writer = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: true, useStyles: true });
  const sheet = writer.addWorksheet('Recipients');
  sheet.addRow(['Phone', 'Name', 'City', 'Order', 'Amount']).commit();
  for (let i = 0; i < ROWS; i += 1) {
    sheet.addRow([919800000000 + i, `Name ${i}`, `City ${i % 97}`, `ORD-${(i * 7919).toString(36)}`, (i % 10_000) / 100]).commit();
  }
  await sheet.commit();
  await writer.commit();
  return Buffer.concat(chunks);
}

const sha256 = (content: Buffer) => createHash('sha256').update(content).digest('hex');

/** Declares the upload and sends every part; completing is left to the caller. */
async function uploaded(client: TestClient, content: Buffer, filename: string): Promise<string> {
  const created = await client.post('/api/uploads', { filename, size: content.length, sha256: sha256(content) });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const { id, partCount } = ZUploadCreated.parse(created.body);
  for (let n = 1; n <= partCount; n += 1) {
    const part = await client.put(`/api/uploads/${id}/parts/${n}`, new Uint8Array(content.subarray((n - 1) * PART_SIZE, n * PART_SIZE)));
    expect(part.status, JSON.stringify(part.body)).toBe(200);
  }
  return id;
}

describe.skipIf(postgresUnavailable)('spreadsheet parses: an instance-wide limit with a queue', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ UPLOAD_PART_SIZE: '4mb', SPREADSHEET_PARSES_MAX: String(LIMIT), SPREADSHEET_PARSES_PER_USER: '2' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('runs at most the global limit of six parses by three users at once, reports the rest as queued, and finishes all', { timeout: 900_000 }, async () => {
    const workbook = await largeWorkbook();
    const users = await Promise.all([0, 1, 2].map(() => signedInClient(server)));
    const uploads: { client: TestClient; id: string }[] = [];
    for (const [u, { client }] of users.entries()) {
      for (let k = 0; k < 2; k += 1) uploads.push({ client, id: await uploaded(client, workbook, `recipients-${u}-${k}.xlsx`) });
    }

    const pool = server.services.spreadsheets.pool;
    let mostRunning = 0;
    let rssPeak = process.memoryUsage.rss();
    const seen = new Map<string, TUploadParse[]>(uploads.map(({ id }) => [id, []]));
    let settled = 0;

    const completions = uploads.map(async ({ client, id }) => {
      try {
        return await client.post(`/api/uploads/${id}/complete`);
      } finally {
        settled += 1;
      }
    });
    // Every upload is asked about while the completions wait, as the send screens ask.
    while (settled < uploads.length) {
      mostRunning = Math.max(mostRunning, pool.stats().running);
      rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
      await Promise.all(
        uploads.map(async ({ client, id }) => {
          const answer = await client.get(`/api/uploads/${id}`);
          expect(answer.status).toBe(200);
          const parse = ZUpload.parse(answer.body).parse;
          if (parse) seen.get(id)?.push(parse);
        }),
      );
      expect(pool.stats().running).toBeLessThanOrEqual(LIMIT);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    for (const answer of await Promise.all(completions)) {
      expect(answer.status, JSON.stringify(answer.body).slice(0, 300)).toBe(200);
      expect(ZUploadCompleted.parse(answer.body).rows).toBe(ROWS);
    }
    expect(mostRunning).toBeLessThanOrEqual(LIMIT);
    expect(pool.stats().peakRunning).toBe(LIMIT);
    const states = [...seen.values()].flat();
    expect(states.filter((state) => state.state === 'parsing').length).toBeGreaterThan(0);
    const queued = states.filter((state): state is Extract<TUploadParse, { state: 'queued' }> => state.state === 'queued');
    // Six parses against two slots: whoever came third or later waited, and said where it stood.
    expect(queued.length).toBeGreaterThan(0);
    for (const state of queued) expect(state.position).toBeGreaterThanOrEqual(1);
    for (const state of queued) expect(state.position).toBeLessThanOrEqual(uploads.length - LIMIT);
    // Done: nothing of theirs is queued or running any more.
    for (const { client, id } of uploads) expect(ZUpload.parse((await client.get(`/api/uploads/${id}`)).body).parse ?? null).toBeNull();
    expect(pool.stats()).toMatchObject({ running: 0, queued: 0 });

    const peakMb = Math.round(Math.max(rssPeak, process.resourceUsage().maxRSS * 1024) / MB);
    console.log(`six parallel parses of a ${(workbook.length / MB).toFixed(1)} MB workbook (${ROWS} rows), ${LIMIT} at a time: process RSS peak ${peakMb} MB`);
  });
});
