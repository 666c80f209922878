import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOADS } from '@shared/constants';
import { createDatabase, type Knex } from '../db/knex';
import { migrateToLatest } from '../db/migrations';
import { AppError } from '../errors';
import { createLogger } from '../logger';
import { User, usernameKey } from '../models';
import { SpreadsheetParses } from '../spreadsheets/spreadsheetParses';
import { UploadService } from './service';

const PART = 1024;
let dataDir: string;
let db: Knex;
let at = new Date('2026-11-27T10:00:00.000Z').getTime();
let spreadsheets: SpreadsheetParses;
let uploads: UploadService;

async function makeUser(): Promise<number> {
  const username = `up_${Math.random().toString(36).slice(2, 10)}`;
  const now = new Date();
  const user = await User.query(db).insertAndFetch({
    name: 'Asha Rao',
    email: `${username}@example.in`,
    emailKey: `${username}@example.in`,
    username,
    usernameKey: usernameKey(username),
    role: 'user',
    passwordHash: 'not-used-here',
    creditBalance: 0,
    pricingMode: 'default',
    createdAt: now,
    updatedAt: now,
  });
  return user.id;
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandesh-uploads-'));
  db = createDatabase({ kind: 'sqlite', filename: path.join(dataDir, 'test.sqlite') });
  await migrateToLatest(db);
  spreadsheets = new SpreadsheetParses({ workerMemoryMb: 256, perUser: 2 });
  uploads = new UploadService({
    db,
    dataDir,
    partSizeBytes: PART,
    maxBytes: 64 * 1024,
    userQuotaBytes: 100 * 1024,
    spreadsheets,
    log: createLogger({ logLevel: 'silent', env: 'test' }),
    now: () => new Date(at),
  });
});

afterAll(async () => {
  await spreadsheets.close();
  await db.destroy();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const sha256 = (content: Buffer) => createHash('sha256').update(content).digest('hex');
const slices = (content: Buffer) => Array.from({ length: Math.ceil(content.length / PART) }, (_, i) => content.subarray(i * PART, (i + 1) * PART));

async function refusal(run: Promise<unknown>): Promise<AppError> {
  const error = await run.then(() => null, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('UploadService', () => {
  it('takes parts in any order (streamed, with or without a declared length) and completes a gzip CSV', async () => {
    const userId = await makeUser();
    const text = ['phone,name', ...Array.from({ length: 500 }, (_, i) => `9198${10_000_000 + i},N${i}`)].join('\n');
    const content = gzipSync(Buffer.from(text), { level: 0 });
    const upload = await uploads.create(userId, { filename: 'list.gz', size: content.length, sha256: sha256(content) });
    const parts = slices(content);
    expect(upload.partCount).toBe(parts.length);
    for (let n = parts.length; n >= 1; n -= 1) {
      const part = parts[n - 1]!;
      // Chunks of 100 bytes, as a socket delivers them.
      const body = Readable.from(Array.from({ length: Math.ceil(part.length / 100) }, (_, i) => part.subarray(i * 100, (i + 1) * 100)));
      expect(await uploads.putPart(userId, upload.id, n, body, n % 2 ? part.length : null)).toEqual({ n, size: part.length });
    }
    const state = await uploads.get(userId, upload.id);
    expect(state.receivedParts).toEqual(parts.map((_, i) => i + 1));
    const summary = await uploads.complete(userId, upload.id);
    expect(summary).toMatchObject({ id: upload.id, rows: 500, columns: ['phone', 'name'] });
    expect(summary.sample).toHaveLength(UPLOADS.sampleRows);
    expect(fs.readdirSync(path.join(dataDir, 'uploads', upload.id))).toEqual(['file']);
    expect(spreadsheets.inFlight(userId)).toBe(0);
  });

  it('refuses a part too long while it streams, and leaves nothing of it behind', async () => {
    const userId = await makeUser();
    const content = Buffer.from('phone\n' + '919810000000\n'.repeat(200));
    const upload = await uploads.create(userId, { filename: 'a.csv', size: content.length, sha256: sha256(content) });
    const error = await refusal(uploads.putPart(userId, upload.id, 1, Readable.from([Buffer.alloc(PART), Buffer.alloc(1)]), null));
    expect(error.code).toBe('part_wrong_size');
    expect(fs.readdirSync(path.join(dataDir, 'uploads', upload.id))).toEqual([]);
    expect((await refusal(uploads.putPart(userId, upload.id, 1, Readable.from([Buffer.alloc(10)]), null))).code).toBe('part_wrong_size');
  });

  it('reports missing parts and a checksum mismatch', async () => {
    const userId = await makeUser();
    const content = Buffer.from('phone\n' + '919810000000\n'.repeat(200));
    const upload = await uploads.create(userId, { filename: 'a.csv', size: content.length, sha256: sha256(Buffer.from('other')) });
    const parts = slices(content);
    await uploads.putPart(userId, upload.id, 2, Readable.from([parts[1]!]), null);
    const missing = await refusal(uploads.complete(userId, upload.id));
    expect(missing.status).toBe(409);
    expect(missing.extra).toEqual({ missingParts: parts.map((_, i) => i + 1).filter((n) => n !== 2) });
    for (const [i, part] of parts.entries()) await uploads.putPart(userId, upload.id, i + 1, Readable.from([part]), null);
    expect((await refusal(uploads.complete(userId, upload.id))).status).toBe(422);
    // The parts stay for another try; no assembled file is left behind.
    expect(fs.readdirSync(path.join(dataDir, 'uploads', upload.id)).sort()).toEqual(parts.map((_, i) => `part-${i + 1}`).sort());
  });

  it('holds each user to the quota of unexpired uploads, and the sweep deletes expired rows and files', async () => {
    const userId = await makeUser();
    const digest = sha256(Buffer.from('x'));
    const first = await uploads.create(userId, { filename: 'a.csv', size: 60 * 1024, sha256: digest });
    await uploads.putPart(userId, first.id, 1, Readable.from([Buffer.alloc(PART)]), PART);
    expect((await refusal(uploads.create(userId, { filename: 'b.csv', size: 41 * 1024, sha256: digest }))).code).toBe('upload_quota_exceeded');
    expect((await refusal(uploads.create(userId, { filename: 'b.csv', size: 65 * 1024, sha256: digest }))).status).toBe(413);
    await uploads.create(userId, { filename: 'b.csv', size: 40 * 1024, sha256: digest });

    at += UPLOADS.expiryHours * 3_600_000 + 1;
    expect((await refusal(uploads.get(userId, first.id))).status).toBe(404);
    expect(await uploads.sweepExpired()).toBeGreaterThanOrEqual(2);
    expect(await db('uploads').where({ user_id: userId })).toEqual([]);
    expect(fs.existsSync(path.join(dataDir, 'uploads', first.id))).toBe(false);
    await uploads.create(userId, { filename: 'c.csv', size: 60 * 1024, sha256: digest });
  });
});
