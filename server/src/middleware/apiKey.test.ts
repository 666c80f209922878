import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Router from '@koa/router';
import { bodyParser } from '@koa/bodyparser';
import Koa from 'koa';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillMessage, messages } from '@shared/messages';
import { createDatabase, type Knex } from '../db/knex';
import { migrateToLatest } from '../db/migrations';
import { BadRequestError } from '../errors';
import { User, usernameKey } from '../models';
import { ApiRateLimiter } from '../apiKeys/rateLimit';
import { ApiKeyService } from '../apiKeys/service';
import { AuditService } from '../audit/service';
import { ThrottleFactory } from '../throttling/throttle';
import type { AppState } from '../types';
import { apiKeyAuth, assertKeyOwner, readApiKey, type ApiKeyStateExtra } from './apiKey';
import { errorHandler } from './errors';

const INVALID = { success: false, error: messages.publicApi.invalidCredentials, code: 'invalid_api_key' };

let dataDir: string;
let db: Knex;
let apiKeys: ApiKeyService;
let sequence = 0;

async function makeUser(overrides: Partial<Pick<User, 'username' | 'role'>> = {}): Promise<User> {
  sequence += 1;
  const username = overrides.username ?? `api_user_${sequence}`;
  const now = new Date();
  return User.query(db).insertAndFetch({
    name: 'Asha Verma',
    email: `${username}@example.in`,
    emailKey: `${username}@example.in`.toLowerCase(),
    username,
    usernameKey: usernameKey(username),
    role: overrides.role ?? 'user',
    passwordHash: 'not-used-here',
    creditBalance: 0,
    pricingMode: 'default',
    createdAt: now,
    updatedAt: now,
  });
}

async function makeKey(user: User, rateLimitPer15Min: number | null = null): Promise<{ id: number; key: string }> {
  const { apiKey, key } = await apiKeys.create(user, 'Test key');
  if (rateLimitPer15Min !== null) await apiKeys.setRateLimit(user, apiKey.id, rateLimitPer15Min);
  return { id: apiKey.id, key };
}

/**
 * A bare Koa app with the middleware in front of a tiny send-like route, the way the public send
 * routes mount it. Each call gets fresh counters.
 */
function makeApp(defaultPer15Min: number) {
  const apiRateLimit = new ApiRateLimiter({ throttles: new ThrottleFactory({ db, kind: 'sqlite' }), defaultPer15Min });
  const app = new Koa<AppState>();
  // Tests give each "client" its own X-Forwarded-For address.
  app.proxy = true;
  app.use(errorHandler());
  app.use(bodyParser());
  const router = new Router<AppState>();
  router.post<ApiKeyStateExtra>('/send', apiKeyAuth({ apiKeys, apiRateLimit }), (ctx) => {
    const body = ctx.request.body as { username?: unknown; fail?: boolean } | undefined;
    if (body?.fail) throw BadRequestError('missing_fields', messages.publicApi.missingFields, 'templatename');
    assertKeyOwner(ctx, body?.username);
    ctx.body = { success: true, apiKey: ctx.state.apiKey, apiUserId: ctx.state.apiUser.id };
  });
  app.use(router.routes());
  return request(app.callback());
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandesh-apikey-'));
  db = createDatabase({ kind: 'sqlite', filename: path.join(dataDir, 'test.sqlite') });
  await migrateToLatest(db);
  apiKeys = new ApiKeyService({ db, audit: new AuditService({ db }) });
});

afterAll(async () => {
  await db?.destroy();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('readApiKey', () => {
  const headers = (values: Record<string, string>) => ({ get: (name: string) => values[name] ?? '' });

  it('reads X-API-Key first, then a bearer token, and nothing else', () => {
    expect(readApiKey(headers({ 'X-API-Key': ' snd_a ', Authorization: 'Bearer snd_b' }))).toBe('snd_a');
    expect(readApiKey(headers({ Authorization: 'Bearer snd_b' }))).toBe('snd_b');
    expect(readApiKey(headers({ Authorization: 'bearer   snd_c ' }))).toBe('snd_c');
    expect(readApiKey(headers({ Authorization: 'Basic dXNlcjpwYXNz' }))).toBeNull();
    expect(readApiKey(headers({}))).toBeNull();
  });
});

describe('apiKeyAuth', () => {
  it('answers 401 in the public shape without a key, with a wrong or malformed key, and with a revoked key', async () => {
    const app = makeApp(100);
    const user = await makeUser();
    const { id, key } = await makeKey(user);

    const missing = await app.post('/send').send({ username: user.username });
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual(INVALID);

    const wrong = await app.post('/send').set('Authorization', `Bearer snd_${'x'.repeat(43)}`).send({ username: user.username });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual(INVALID);
    const malformed = await app.post('/send').set('X-API-Key', 'not-a-key').send({ username: user.username });
    expect(malformed.status).toBe(401);
    // One character off is a different key.
    const altered = await app.post('/send').set('X-API-Key', `${key.slice(0, -1)}${key.endsWith('a') ? 'b' : 'a'}`).send({ username: user.username });
    expect(altered.status).toBe(401);

    await apiKeys.revoke(user, id);
    const revoked = await app.post('/send').set('Authorization', `Bearer ${key}`).send({ username: user.username });
    expect(revoked.status).toBe(401);
    expect(revoked.body).toEqual(INVALID);
  });

  it('accepts the key as a bearer token or as X-API-Key and hands the owner to the route', async () => {
    const app = makeApp(100);
    const user = await makeUser();
    const { id, key } = await makeKey(user);

    for (const [header, value] of [
      ['Authorization', `Bearer ${key}`],
      ['X-API-Key', key],
    ] as const) {
      const response = await app.post('/send').set(header, value).send({ username: user.username });
      expect(response.status, header).toBe(200);
      expect(response.body).toEqual({ success: true, apiKey: { keyId: id, userId: user.id, username: user.username }, apiUserId: user.id });
    }
  });

  it('refuses a key whose owner was deleted or deactivated', async () => {
    const app = makeApp(100);
    const deleted = await makeUser();
    const inactive = await makeUser();
    const deletedKey = await makeKey(deleted);
    const inactiveKey = await makeKey(inactive);
    await User.query(db).patch({ deletedAt: new Date() }).where({ id: deleted.id });
    await db('users').update({ is_active: 0 }).where({ id: inactive.id });

    expect((await app.post('/send').set('X-API-Key', deletedKey.key).send({ username: deleted.username })).status).toBe(401);
    expect((await app.post('/send').set('X-API-Key', inactiveKey.key).send({ username: inactive.username })).status).toBe(401);
  });

  it("lets assertKeyOwner refuse another user's username with the same 401, ignoring case", async () => {
    const app = makeApp(100);
    const owner = await makeUser({ username: `Owner_${Date.now()}` });
    const other = await makeUser();
    const { key } = await makeKey(owner);

    const mismatch = await app.post('/send').set('X-API-Key', key).send({ username: other.username });
    expect(mismatch.status).toBe(401);
    expect(mismatch.body).toEqual(INVALID);
    expect((await app.post('/send').set('X-API-Key', key).send({})).status).toBe(401);
    expect((await app.post('/send').set('X-API-Key', key).send({ username: owner.username.toLowerCase() })).status).toBe(200);
  });

  it('answers errors thrown by the route in the public shape', async () => {
    const app = makeApp(100);
    const user = await makeUser();
    const { key } = await makeKey(user);
    const response = await app.post('/send').set('X-API-Key', key).send({ username: user.username, fail: true });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ success: false, error: messages.publicApi.missingFields, code: 'missing_fields', field: 'templatename' });
  });

  it('limits each IP to the default per 15 minutes and answers 429 with the wait and the limit headers', async () => {
    const app = makeApp(3);
    const user = await makeUser();
    const { key } = await makeKey(user);
    const send = (ip: string) => app.post('/send').set('X-Forwarded-For', ip).set('X-API-Key', key).send({ username: user.username });

    const before = Math.floor(Date.now() / 1000);
    for (let n = 1; n <= 3; n += 1) {
      const response = await send('203.0.113.10');
      expect(response.status).toBe(200);
      expect(response.headers['x-ratelimit-limit']).toBe('3');
      expect(response.headers['x-ratelimit-remaining']).toBe(String(3 - n));
      const reset = Number(response.headers['x-ratelimit-reset']);
      expect(reset).toBeGreaterThan(before);
      // The window ends 15 minutes after its first request at the latest, and that request was
      // answered by now: a bound that holds however long a loaded machine took to answer.
      expect(reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 15 * 60);
    }
    const refused = await send('203.0.113.10');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ success: false, error: fillMessage(messages.publicApi.tooManyRequestsLimit, { limit: 3 }), code: 'rate_limited' });
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(800);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(900);

    // Another address has its own allowance, even with the same key.
    expect((await send('203.0.113.11')).status).toBe(200);
  });

  it('says the spec text when the limit is the default 100', () => {
    expect(fillMessage(messages.publicApi.tooManyRequestsLimit, { limit: 100 })).toBe(messages.publicApi.tooManyRequests);
  });

  it('counts requests with a wrong key against the IP, so guessing is throttled', async () => {
    const app = makeApp(2);
    const user = await makeUser();
    const { key } = await makeKey(user);
    const ip = '198.51.100.7';
    for (let n = 0; n < 2; n += 1) {
      expect((await app.post('/send').set('X-Forwarded-For', ip).set('X-API-Key', 'snd_wrong').send({})).status).toBe(401);
    }
    const guessing = await app.post('/send').set('X-Forwarded-For', ip).set('X-API-Key', 'snd_wrong').send({});
    expect(guessing.status).toBe(429);
    // The IP's allowance is spent for valid keys too.
    expect((await app.post('/send').set('X-Forwarded-For', ip).set('X-API-Key', key).send({ username: user.username })).status).toBe(429);
  });

  it("counts a key with its own limit against that key alone, across IPs, and leaves the IP's allowance alone", async () => {
    const app = makeApp(2);
    const user = await makeUser();
    const raised = await makeKey(user, 5);
    const plain = await makeKey(user);
    const ip = '192.0.2.50';
    const send = (key: string, from: string) => app.post('/send').set('X-Forwarded-For', from).set('X-API-Key', key).send({ username: user.username });

    for (let n = 1; n <= 5; n += 1) {
      const response = await send(raised.key, n % 2 ? ip : '192.0.2.51');
      expect(response.status, `request ${n}`).toBe(200);
      expect(response.headers['x-ratelimit-limit']).toBe('5');
      expect(response.headers['x-ratelimit-remaining']).toBe(String(5 - n));
    }
    const refused = await send(raised.key, '192.0.2.52');
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe(fillMessage(messages.publicApi.tooManyRequestsLimit, { limit: 5 }));

    // The raised key's traffic did not use the IP's default allowance.
    expect((await send(plain.key, ip)).status).toBe(200);
    expect((await send(plain.key, ip)).status).toBe(200);
    expect((await send(plain.key, ip)).status).toBe(429);
  });

  it('applies a lowered per-key limit too', async () => {
    const app = makeApp(100);
    const user = await makeUser();
    const { key } = await makeKey(user, 1);
    expect((await app.post('/send').set('X-API-Key', key).send({ username: user.username })).status).toBe(200);
    expect((await app.post('/send').set('X-API-Key', key).send({ username: user.username })).status).toBe(429);
  });
});
