/**
 * Resumable uploads: create, parts in any order and again, resume, complete with a
 * checksum and a parse (CSV, gzip CSV, XLSX), ownership, the quota and the 24-hour expiry.
 * The server runs with 16 KB parts, 1 MB files and a 2 MB quota so that small files have parts.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOADS } from '@shared/constants';
import { messages } from '@shared/messages';
import { ZUpload, ZUploadCompleted, ZUploadCreated, type TUpload, type TUploadCompleted, type TUploadCreated } from '@shared/schemas/uploads';
import type { TErrorResponse } from '@shared/types';
import { SESSION_COOKIE } from '../../server/src/middleware/auth';
import { TestClient } from '../../server/test/client';
import { ManualClock } from '../../server/test/clock';
import { buildUser, signedInClient } from '../../server/test/factories';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';

const PART_SIZE = 16 * 1024;
const MB = 1024 * 1024;

const sha256 = (content: Buffer) => createHash('sha256').update(content).digest('hex');

function partsOf(content: Buffer): Buffer[] {
  const parts: Buffer[] = [];
  for (let at = 0; at < content.length; at += PART_SIZE) parts.push(content.subarray(at, at + PART_SIZE));
  return parts;
}

/** A CSV of `rows` recipients, long enough for several parts. */
function recipientsCsv(rows: number): Buffer {
  const lines = ['phone,name,city'];
  for (let i = 0; i < rows; i += 1) lines.push(`9198${String(10_000_000 + i)},Name ${i},City ${i % 37}`);
  return Buffer.from(`${lines.join('\n')}\n`);
}

describe.skipIf(postgresUnavailable)('resumable uploads', () => {
  let server: TestServer;
  const clock = new ManualClock();
  beforeAll(async () => {
    server = await startTestServer({ UPLOAD_PART_SIZE: '16kb', UPLOAD_MAX_MB: '1', UPLOAD_USER_QUOTA_MB: '2' }, { uploadClock: clock.now });
  });
  afterAll(async () => {
    await server?.close();
  });

  async function create(client: TestClient, content: Buffer, filename = 'recipients.csv', digest = sha256(content)): Promise<TUploadCreated> {
    const res = await client.post<TUploadCreated>('/api/uploads', { filename, size: content.length, sha256: digest });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return ZUploadCreated.parse(res.body);
  }

  const putPart = (client: TestClient, id: string, n: number, bytes: Buffer) => client.put<{ n: number; size: number } & TErrorResponse>(`/api/uploads/${id}/parts/${n}`, new Uint8Array(bytes));

  async function sendAll(client: TestClient, id: string, content: Buffer): Promise<void> {
    const parts = partsOf(content);
    for (const [i, part] of parts.entries()) {
      const res = await putPart(client, id, i + 1, part);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
  }

  async function completed(client: TestClient, id: string): Promise<TUploadCompleted> {
    const res = await client.post<TUploadCompleted>(`/api/uploads/${id}/complete`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return ZUploadCompleted.parse(res.body);
  }

  describe('POST /api/uploads', () => {
    it('answers 201 with the part size the server chose, the part count and the expiry 24 hours on', async () => {
      const { client } = await signedInClient(server);
      const content = recipientsCsv(2_000);
      const created = await create(client, content);
      expect(created.partSize).toBe(PART_SIZE);
      expect(created.partCount).toBe(Math.ceil(content.length / PART_SIZE));
      expect(new Date(created.expiresAt).getTime()).toBe(clock.now().getTime() + UPLOADS.expiryHours * 3_600_000);
    });

    it('takes the desktop bearer token like the session cookie, and refuses a caller without either with 401', async () => {
      const user = await buildUser(server);
      const login = await new TestClient(server.url).post('/api/auth/login', { username: user.username, password: user.plainPassword }, { 'X-Client': 'desktop' });
      const desktop = new TestClient(server.url).useBearer(login.body.token as string);
      const content = recipientsCsv(10);
      const created = await create(desktop, content);
      await sendAll(desktop, created.id, content);
      expect((await completed(desktop, created.id)).rows).toBe(10);
      const anonymous = new TestClient(server.url);
      expect((await anonymous.post('/api/uploads', { filename: 'a.csv', size: 10, sha256: sha256(content) })).status).toBe(401);
      expect((await anonymous.get(`/api/uploads/${created.id}`)).status).toBe(401);
    });

    it('refuses a missing name, a bad size and a checksum that is not SHA-256 hex with 400 and catalogue words', async () => {
      const { client } = await signedInClient(server);
      const digest = sha256(Buffer.from('x'));
      const cases: [Record<string, unknown>, string, string][] = [
        [{ filename: ' ', size: 10, sha256: digest }, 'filename', messages.uploads.filenameRequired],
        [{ filename: 'a.csv', size: 0, sha256: digest }, 'size', messages.uploads.sizeInvalid],
        [{ filename: 'a.csv', size: 1.5, sha256: digest }, 'size', messages.uploads.sizeInvalid],
        [{ filename: 'a.csv', size: 10, sha256: 'abc' }, 'sha256', messages.uploads.checksumInvalid],
      ];
      for (const [body, field, message] of cases) {
        const res = await client.post<TErrorResponse>('/api/uploads', body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.details ?? [{ field: res.body.field, message: res.body.error }]).toContainEqual({ field, message });
      }
    });

    it('refuses a file over the largest upload with 413 and one past the quota with 409 until an upload is deleted', async () => {
      const { client } = await signedInClient(server);
      const digest = sha256(Buffer.from('x'));
      const tooLarge = await client.post<TErrorResponse>('/api/uploads', { filename: 'big.csv', size: MB + 1, sha256: digest });
      expect(tooLarge.status).toBe(413);
      expect(tooLarge.body).toMatchObject({ code: 'upload_too_large', error: messages.uploads.tooLarge.replace('{max}', '1') });

      const first = await client.post<TUploadCreated>('/api/uploads', { filename: 'a.csv', size: MB, sha256: digest });
      expect(first.status).toBe(201);
      expect((await client.post('/api/uploads', { filename: 'b.csv', size: MB, sha256: digest })).status).toBe(201);
      const over = await client.post<TErrorResponse>('/api/uploads', { filename: 'c.csv', size: 1, sha256: digest });
      expect(over.status).toBe(409);
      expect(over.body).toMatchObject({ code: 'upload_quota_exceeded', error: messages.uploads.quotaExceeded.replace('{used}', '2').replace('{max}', '2') });
      // The quota is the user's own: someone else still uploads.
      const { client: other } = await signedInClient(server);
      expect((await other.post('/api/uploads', { filename: 'c.csv', size: 1, sha256: digest })).status).toBe(201);

      expect((await client.delete(`/api/uploads/${first.body.id}`)).status).toBe(204);
      expect((await client.get(`/api/uploads/${first.body.id}`)).status).toBe(404);
      expect((await client.post('/api/uploads', { filename: 'c.csv', size: 1, sha256: digest })).status).toBe(201);
    });
  });

  describe('PUT /api/uploads/{id}/parts/{n} and GET /api/uploads/{id}', () => {
    it('takes parts out of order, replaces a part sent again, and tells what arrived so a client can resume', async () => {
      const { client } = await signedInClient(server);
      const content = recipientsCsv(2_000);
      const parts = partsOf(content);
      expect(parts.length).toBeGreaterThanOrEqual(4);
      const { id, partCount } = await create(client, content);

      const last = await putPart(client, id, partCount, parts[partCount - 1]!);
      expect(last.status).toBe(200);
      expect(last.body).toEqual({ n: partCount, size: parts[partCount - 1]!.length });
      expect((await putPart(client, id, 2, parts[1]!)).status).toBe(200);
      // A broken first attempt of part 1: wrong bytes of the right length, sent again correctly below.
      expect((await putPart(client, id, 1, Buffer.alloc(PART_SIZE, 0x41))).status).toBe(200);

      const state = await client.get<TUpload>(`/api/uploads/${id}`);
      expect(state.status).toBe(200);
      expect(ZUpload.parse(state.body)).toMatchObject({ id, size: content.length, receivedParts: [1, 2, partCount], status: 'receiving', partSize: PART_SIZE, partCount });

      const incomplete = await client.post<TErrorResponse>(`/api/uploads/${id}/complete`);
      expect(incomplete.status).toBe(409);
      const missing = Array.from({ length: partCount - 3 }, (_, i) => i + 3);
      expect(incomplete.body).toMatchObject({ code: 'upload_incomplete', missingParts: missing });

      for (const n of missing.reverse()) expect((await putPart(client, id, n, parts[n - 1]!)).status).toBe(200);
      // Part 1 held the wrong bytes: the checksum says so.
      const mismatch = await client.post<TErrorResponse>(`/api/uploads/${id}/complete`);
      expect(mismatch.status).toBe(422);
      expect(mismatch.body).toMatchObject({ code: 'checksum_mismatch', error: messages.uploads.checksumMismatch });

      expect((await putPart(client, id, 1, parts[0]!)).status).toBe(200);
      const result = await completed(client, id);
      expect(result.id).toBe(id);
      expect(result.rows).toBe(2_000);
      expect(result.columns).toEqual(['phone', 'name', 'city']);
      expect(result.sample).toHaveLength(UPLOADS.sampleRows);
      expect(result.sample[0]).toEqual({ phone: '919810000000', name: 'Name 0', city: 'City 0' });

      const done = ZUpload.parse((await client.get<TUpload>(`/api/uploads/${id}`)).body);
      expect(done.status).toBe('complete');
      expect(done.receivedParts).toHaveLength(partCount);
      // Completing again (an answer lost on the way) answers the same; the parts no longer change.
      expect(await completed(client, id)).toEqual(result);
      expect((await putPart(client, id, 1, parts[0]!)).status).toBe(409);
    });

    it('refuses a part of the wrong size, a number out of range, another content type and a body over the part size', async () => {
      const { client } = await signedInClient(server);
      const content = recipientsCsv(1_000);
      const { id, partCount } = await create(client, content);
      const parts = partsOf(content);

      const short = await putPart(client, id, 1, parts[0]!.subarray(1));
      expect(short.status).toBe(400);
      expect(short.body).toMatchObject({ code: 'part_wrong_size' });
      // The last part is exactly the remainder.
      const lastWithFullSize = await putPart(client, id, partCount, Buffer.alloc(PART_SIZE, 0x41));
      expect(lastWithFullSize.status).toBe(400);
      expect(lastWithFullSize.body).toMatchObject({ code: 'part_wrong_size' });

      const outOfRange = await putPart(client, id, partCount + 1, parts[0]!);
      expect(outOfRange.status).toBe(400);
      expect(outOfRange.body).toMatchObject({ code: 'part_out_of_range' });
      expect((await putPart(client, id, 0, parts[0]!)).status).toBe(400);
      expect((await putPart(client, id, Number.NaN, parts[0]!)).status).toBe(400);

      const json = await client.put<TErrorResponse>(`/api/uploads/${id}/parts/1`, { not: 'bytes' });
      expect(json.status).toBe(415);
      expect(json.body.error).toBe(messages.uploads.partContentType);
      // Past the part size the body gate answers 413 from Content-Length, before reading it.
      expect((await putPart(client, id, 1, Buffer.alloc(PART_SIZE + 1))).status).toBe(413);

      expect((await client.get<TUpload>(`/api/uploads/${id}`)).body.receivedParts).toEqual([]);
    });

    it('counts the bytes of a part sent without Content-Length (chunked) and refuses too many', async () => {
      const { client } = await signedInClient(server);
      const content = recipientsCsv(1_000);
      const { id } = await create(client, content);
      const chunked = (bytes: Buffer) =>
        new Promise<number>((resolve, reject) => {
          const target = new URL(`/api/uploads/${id}/parts/1`, server.url);
          const request = http.request(
            {
              method: 'PUT',
              hostname: target.hostname,
              port: target.port,
              path: target.pathname,
              headers: { 'Content-Type': 'application/octet-stream', 'Transfer-Encoding': 'chunked', Cookie: `${SESSION_COOKIE}=${client.cookie(SESSION_COOKIE) ?? ''}` },
            },
            (response) => {
              response.resume();
              resolve(response.statusCode ?? 0);
            },
          );
          // The server may answer and close before the whole body was written (then this is too late to matter).
          request.on('error', reject);
          for (let at = 0; at < bytes.length; at += 4096) request.write(bytes.subarray(at, at + 4096));
          request.end();
        });
      expect(await chunked(Buffer.concat([partsOf(content)[0]!, Buffer.alloc(8 * 1024)]))).toBe(400);
      expect((await client.get<TUpload>(`/api/uploads/${id}`)).body.receivedParts).toEqual([]);
      expect(await chunked(partsOf(content)[0]!)).toBe(200);
      expect((await client.get<TUpload>(`/api/uploads/${id}`)).body.receivedParts).toEqual([1]);
    });

    it("answers 404 for another user's upload, and for an id that cannot be one", async () => {
      const { client: owner } = await signedInClient(server);
      const { client: stranger } = await signedInClient(server);
      const content = recipientsCsv(10);
      const { id } = await create(owner, content);
      await sendAll(owner, id, content);
      for (const res of [
        await stranger.get<TErrorResponse>(`/api/uploads/${id}`),
        await putPart(stranger, id, 1, content),
        await stranger.post<TErrorResponse>(`/api/uploads/${id}/complete`),
        await stranger.delete<TErrorResponse>(`/api/uploads/${id}`),
        await owner.get<TErrorResponse>('/api/uploads/not-an-id'),
        await owner.get<TErrorResponse>('/api/uploads/..%2F..%2Fsandesh.sqlite'),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body).toMatchObject({ code: 'upload_not_found', error: messages.uploads.notFound });
      }
      expect((await completed(owner, id)).rows).toBe(10);
    });

    it('reads a refused part to its end, so its answer always arrives and the connection serves the next request', async () => {
      // Closing with the body still arriving made the kernel reset the connection, and under load
      // the desktop client lost the 404 to the reset ("the server did not answer after 5 tries").
      const { client: owner } = await signedInClient(server);
      const { client: stranger } = await signedInClient(server);
      const content = recipientsCsv(1_000);
      const { id } = await create(owner, content);
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const target = new URL(server.url);
      const send = (method: string, pathname: string, body?: Buffer) =>
        new Promise<{ status: number; connection: string | undefined; reusedSocket: boolean }>((resolve, reject) => {
          const headers: Record<string, string> = { Cookie: `${SESSION_COOKIE}=${stranger.cookie(SESSION_COOKIE) ?? ''}` };
          if (body) Object.assign(headers, { 'Content-Type': 'application/octet-stream', 'Content-Length': String(body.length) });
          const request = http.request({ agent, method, hostname: target.hostname, port: target.port, path: pathname, headers }, (response) => {
            response.resume();
            response.once('end', () => resolve({ status: response.statusCode ?? 0, connection: response.headers.connection, reusedSocket: request.reusedSocket }));
          });
          request.on('error', reject);
          request.end(body);
        });
      try {
        const refused = await send('PUT', `/api/uploads/${id}/parts/1`, partsOf(content)[0]!);
        expect(refused.status).toBe(404);
        expect(refused.connection).not.toBe('close');
        const next = await send('GET', `/api/uploads/${id}`);
        expect(next).toMatchObject({ status: 404, reusedSocket: true });
      } finally {
        agent.destroy();
      }
      expect((await owner.get<TUpload>(`/api/uploads/${id}`)).body.receivedParts).toEqual([]);
    });
  });

  describe('POST /api/uploads/{id}/complete', () => {
    it('reads gzip-compressed CSV by its magic bytes, whatever its name', async () => {
      const { client } = await signedInClient(server);
      const content = gzipSync(recipientsCsv(30_000));
      expect(content.length).toBeGreaterThan(PART_SIZE);
      const { id } = await create(client, content, 'recipients.upload');
      await sendAll(client, id, content);
      const result = await completed(client, id);
      expect(result.rows).toBe(30_000);
      expect(result.columns).toEqual(['phone', 'name', 'city']);
      expect(result.sample[19]).toEqual({ phone: '919810000019', name: 'Name 19', city: 'City 19' });
    });

    it('reads the first worksheet of an .xlsx file', async () => {
      const workbook = new ExcelJS.Workbook();
      const sheet = workbook.addWorksheet('Recipients');
      sheet.addRow(['Phone', 'Name', 'Amount']);
      for (let i = 0; i < 3_000; i += 1) sheet.addRow([919810000000 + i, `Name ${i}`, i * 10]);
      const content = Buffer.from(await workbook.xlsx.writeBuffer());
      expect(content.length).toBeGreaterThan(PART_SIZE);
      const { client } = await signedInClient(server);
      const { id } = await create(client, content, 'recipients.xlsx');
      await sendAll(client, id, content);
      const result = await completed(client, id);
      expect(result.rows).toBe(3_000);
      expect(result.columns).toEqual(['Phone', 'Name', 'Amount']);
      expect(result.sample).toHaveLength(UPLOADS.sampleRows);
      expect(result.sample[2]).toEqual({ Phone: '919810000002', Name: 'Name 2', Amount: '20' });
    });

    it('refuses a file that is not a spreadsheet with 400', async () => {
      const { client } = await signedInClient(server);
      const content = Buffer.from([0x00, 0x01, 0x02, 0x03, 0x89, 0x50, 0x4e, 0x47]);
      const { id } = await create(client, content, 'photo.csv');
      await sendAll(client, id, content);
      const res = await client.post<TErrorResponse>(`/api/uploads/${id}/complete`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ field: 'file', error: messages.uploads.notSpreadsheet });
    });
  });

  describe('the unauthenticated part body', () => {
    it('is answered with 401 without being read', async () => {
      const answer = await new Promise<number>((resolve, reject) => {
        const target = new URL('/api/uploads/00000000-0000-4000-8000-000000000000/parts/1', server.url);
        const request = http.request(
          { method: 'PUT', hostname: target.hostname, port: target.port, path: target.pathname, headers: { 'Content-Type': 'application/octet-stream', 'Content-Length': String(PART_SIZE) } },
          (response) => {
            response.resume();
            resolve(response.statusCode ?? 0);
            request.destroy();
          },
        );
        request.on('error', reject);
        // Only the first bytes: a server waiting for the rest would never answer.
        request.write(Buffer.alloc(100));
      });
      expect(answer).toBe(401);
    });
  });

  // Last: it moves the clock of the whole file's server past every upload's expiry.
  describe('expiry', () => {
    it('deletes uploads 24 hours after they started: rows and files, by the sweep', async () => {
      const { client, user } = await signedInClient(server);
      const content = recipientsCsv(1_000);
      const { id } = await create(client, content);
      expect((await putPart(client, id, 1, partsOf(content)[0]!)).status).toBe(200);
      const folder = path.join(server.dataDir, 'uploads', id);
      expect(fs.existsSync(path.join(folder, 'part-1'))).toBe(true);

      clock.advance(UPLOADS.expiryHours * 3_600_000 - 60_000);
      await server.services.uploads.sweepExpired();
      expect((await client.get(`/api/uploads/${id}`)).status).toBe(200);

      clock.advance(120_000);
      // Expired is gone for its owner at once, before any sweep.
      expect((await client.get(`/api/uploads/${id}`)).status).toBe(404);
      expect(await server.db('uploads').where({ id }).first()).toBeDefined();
      expect(await server.services.uploads.sweepExpired()).toBeGreaterThanOrEqual(1);
      expect(await server.db('uploads').where({ id }).first()).toBeUndefined();
      expect(fs.existsSync(folder)).toBe(false);
      // A second sweep (another instance) finds nothing to do and fails on nothing.
      await server.services.uploads.sweepExpired();
      // The quota counts unexpired uploads only.
      expect((await server.db('uploads').where({ userId: user.id })).length).toBe(0);
    });
  });
});
