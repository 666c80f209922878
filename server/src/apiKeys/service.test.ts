import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_PATTERN, API_KEYS } from '@shared/apiKeys';
import { createDatabase, type Knex } from '../db/knex';
import { migrateToLatest } from '../db/migrations';
import { User, usernameKey } from '../models';
import { ApiKey } from '../models/ApiKey';
import { ApiKeyService, generateApiKey, hashApiKey } from './service';
import { AuditService } from '../audit/service';

let dataDir: string;
let db: Knex;
let clock = new Date('2026-03-01T10:00:00.000Z');
let service: ApiKeyService;

async function makeUser(): Promise<User> {
  const username = `svc_${Math.random().toString(36).slice(2, 10)}`;
  const now = new Date();
  return User.query(db).insertAndFetch({
    name: 'Ravi Kumar',
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
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandesh-apikeys-'));
  db = createDatabase({ kind: 'sqlite', filename: path.join(dataDir, 'test.sqlite') });
  await migrateToLatest(db);
  service = new ApiKeyService({ db, audit: new AuditService({ db }), now: () => clock });
});

afterAll(async () => {
  await db?.destroy();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('generateApiKey', () => {
  it('makes snd_ keys of 43 base62 characters that do not repeat', () => {
    const keys = new Set(Array.from({ length: 200 }, generateApiKey));
    expect(keys.size).toBe(200);
    for (const key of keys) expect(key).toMatch(API_KEY_PATTERN);
  });

  it('hashes with SHA-256, hex', () => {
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('ApiKeyService', () => {
  it('stores only the hash and the visible prefix', async () => {
    const user = await makeUser();
    const { apiKey, key } = await service.create(user, '  Billing server  ');
    expect(apiKey.name).toBe('Billing server');
    expect(apiKey.prefix).toBe(key.slice(0, API_KEYS.prefixLength));
    const row = (await db('api_keys').where({ id: apiKey.id }).first()) as Record<string, unknown>;
    expect(row.keyHash).toBe(hashApiKey(key));
    expect(Object.values(row)).not.toContain(key);
  });

  it('writes last_used_at on first use and then at most once a minute', async () => {
    const user = await makeUser();
    const { apiKey, key } = await service.create(user, 'Shop');
    const lastUsed = async () => (await ApiKey.query(db).findById(apiKey.id))?.lastUsedAt?.toISOString() ?? null;
    expect(await lastUsed()).toBeNull();

    clock = new Date('2026-03-01T10:00:00.000Z');
    const identity = await service.authenticate(key);
    expect(identity).toMatchObject({ keyId: apiKey.id, userId: user.id, username: user.username, rateLimitPer15Min: null });
    expect(identity?.user).toBeInstanceOf(User);
    expect(Object.keys(identity?.user ?? {})).not.toContain('apiKeyId');
    expect(await lastUsed()).toBe('2026-03-01T10:00:00.000Z');

    clock = new Date('2026-03-01T10:00:59.000Z');
    await service.authenticate(key);
    expect(await lastUsed()).toBe('2026-03-01T10:00:00.000Z');

    clock = new Date('2026-03-01T10:01:01.000Z');
    await service.authenticate(key);
    expect(await lastUsed()).toBe('2026-03-01T10:01:01.000Z');
  });

  it("reports the key's own rate limit once an administrator sets it", async () => {
    const user = await makeUser();
    const { apiKey, key } = await service.create(user, 'Partner');
    await service.setRateLimit(user, apiKey.id, 500);
    expect((await service.authenticate(key))?.rateLimitPer15Min).toBe(500);
    await service.setRateLimit(user, apiKey.id, null);
    expect((await service.authenticate(key))?.rateLimitPer15Min).toBeNull();
  });

  it('answers each request sharing a lookup its own User model of the owner, with none of the key\'s columns on it', async () => {
    const user = await makeUser();
    const { apiKey, key } = await service.create(user, 'Shared');
    // Two requests of one turn share one read of the key.
    const [first, second] = await Promise.all([service.authenticate(key), service.authenticate(key)]);
    expect(first && second).toBeTruthy();
    expect(first?.user).toBeInstanceOf(User);
    expect(first?.user).not.toBe(second?.user);
    expect(first?.user).toMatchObject({ id: user.id, username: user.username, isActive: true, creditBalance: 0 });
    expect(first?.user.createdAt).toBeInstanceOf(Date);
    expect(first).toMatchObject({ keyId: apiKey.id, userId: user.id, username: user.username, rateLimitPer15Min: null });
    for (const column of ['apiKeyId', 'apiKeyRateLimit', 'apiKeyLastUsedAt']) expect(first?.user).not.toHaveProperty(column);
    // What one request sets on its owner does not reach the other's.
    (first?.user as User).name = 'Changed here';
    expect(second?.user.name).toBe('Ravi Kumar');
  });
});
