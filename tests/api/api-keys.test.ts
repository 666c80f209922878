import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_PATTERN, API_KEYS, type TAdminApiKey, type TApiKey, type TCreatedApiKey } from '@shared/apiKeys';
import { fillMessage, messages } from '@shared/messages';
import { TestClient } from '../../server/test/client';
import { signedInClient } from '../../server/test/factories';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';

const k = messages.apiKeys;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe.skipIf(postgresUnavailable)('API keys', () => {
  let server: TestServer;
  let admin: TestClient;
  beforeAll(async () => {
    server = await startTestServer();
    ({ client: admin } = await signedInClient(server, { role: 'admin' }));
  });
  afterAll(async () => {
    await server?.close();
  });

  async function createKey(client: TestClient, name = 'Billing server'): Promise<TCreatedApiKey> {
    const response = await client.post<{ data: TCreatedApiKey }>('/api/keys', { name });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return response.body.data;
  }

  async function listKeys(client: TestClient): Promise<TApiKey[]> {
    const response = await client.get<{ success: boolean; data: TApiKey[] }>('/api/keys');
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    return response.body.data;
  }

  describe('POST /api/keys', () => {
    it('answers the full key once, with its visible prefix, and never caches it', async () => {
      const { client } = await signedInClient(server);
      const response = await client.post<{ success: boolean; message: string; data: TCreatedApiKey }>('/api/keys', { name: '  Shop backend ' });
      expect(response.status).toBe(201);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.body).toMatchObject({ success: true, message: k.created, data: { name: 'Shop backend' } });
      const { key, prefix, id, createdAt } = response.body.data;
      expect(key).toMatch(API_KEY_PATTERN);
      expect(prefix).toBe(key.slice(0, API_KEYS.prefixLength));
      expect(prefix.startsWith('snd_')).toBe(true);
      expect(id).toBeGreaterThan(0);
      expect(Number.isNaN(Date.parse(createdAt))).toBe(false);
    });

    it('keeps only the SHA-256 of the key in the database', async () => {
      const { client, user } = await signedInClient(server);
      const created = await createKey(client);
      const rows = (await server.db('api_keys').where({ userId: user.id })) as Record<string, unknown>[];
      expect(rows).toHaveLength(1);
      expect(rows[0]?.keyHash).toBe(sha256(created.key));
      expect(JSON.stringify(rows)).not.toContain(created.key);
    });

    it.each([
      [{}, k.nameRequired],
      [{ name: '   ' }, k.nameRequired],
      [{ name: 'x'.repeat(API_KEYS.nameMaxLength + 1) }, fillMessage(k.nameTooLong, { max: API_KEYS.nameMaxLength })],
    ])('refuses %j with 400', async (body, message) => {
      const { client } = await signedInClient(server);
      const response = await client.post('/api/keys', body);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ error: message, field: 'name' });
    });

    it(`allows at most ${API_KEYS.maxActivePerUser} active keys, and one more after a revoke`, async () => {
      const { client } = await signedInClient(server);
      const created: TCreatedApiKey[] = [];
      for (let n = 1; n <= API_KEYS.maxActivePerUser; n += 1) created.push(await createKey(client, `Key ${n}`));
      const refused = await client.post('/api/keys', { name: 'One too many' });
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ error: fillMessage(k.limitReached, { max: API_KEYS.maxActivePerUser }), code: 'api_key_limit' });

      expect((await client.delete(`/api/keys/${created[0]?.id}`)).status).toBe(200);
      await createKey(client, 'Replacement');
      expect(await listKeys(client)).toHaveLength(API_KEYS.maxActivePerUser);
    });

    it('is for signed-in regular users only', async () => {
      expect((await new TestClient(server.url).post('/api/keys', { name: 'x' })).status).toBe(401);
      expect((await new TestClient(server.url).get('/api/keys')).status).toBe(401);
      const response = await admin.post('/api/keys', { name: 'Admin key' });
      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({ error: messages.auth.userOnly });
    });
  });

  describe('GET /api/keys', () => {
    it("lists the owner's active keys, newest first, without the key or its hash", async () => {
      const { client } = await signedInClient(server);
      const first = await createKey(client, 'First');
      const second = await createKey(client, 'Second');
      const keys = await listKeys(client);
      expect(keys.map((key) => key.id)).toEqual([second.id, first.id]);
      expect(keys[0]).toEqual({ id: second.id, name: 'Second', prefix: second.prefix, createdAt: second.createdAt, lastUsedAt: null, rateLimitPer15Min: null });
      const text = JSON.stringify(keys);
      expect(text).not.toContain(first.key);
      expect(text).not.toContain(sha256(first.key));
    });

    it("never shows another user's keys", async () => {
      const { client: asha } = await signedInClient(server);
      const { client: ravi } = await signedInClient(server);
      await createKey(asha);
      expect(await listKeys(ravi)).toEqual([]);
    });

    it('shows when a key was last used', async () => {
      const { client } = await signedInClient(server);
      const created = await createKey(client);
      expect(await server.services.apiKeys.authenticate(created.key)).not.toBeNull();
      const [listed] = await listKeys(client);
      expect(listed?.lastUsedAt).not.toBeNull();
    });
  });

  describe('authenticating many requests with one key at once', () => {
    type Identity = Awaited<ReturnType<TestServer['services']['apiKeys']['authenticate']>>;
    /** Runs `work` and answers how many times it read a key, with what it answered. */
    async function countingKeyReads<T>(work: () => Promise<T>): Promise<{ reads: number; result: T }> {
      let reads = 0;
      const count = (query: { sql: string }) => {
        if (query.sql.includes('api_keys') && query.sql.startsWith('select')) reads += 1;
      };
      server.db.on('query', count);
      try {
        const result = await work();
        return { reads, result };
      } finally {
        server.db.off('query', count);
      }
    }

    it('reads the key once for the requests that ask together, each with its own user', async () => {
      const { client, user } = await signedInClient(server);
      const created = await createKey(client);
      const { reads, result: identities } = await countingKeyReads(() => Promise.all(Array.from({ length: 8 }, () => server.services.apiKeys.authenticate(created.key))));
      expect(reads).toBe(1);
      expect(identities.map((identity) => identity?.userId)).toEqual(Array(8).fill(user.id));
      // One request's model is not another's.
      expect(identities[0]?.user).not.toBe(identities[1]?.user);
      expect(identities[0]?.user).toMatchObject({ id: user.id, username: user.username });
    });

    it('shares one read among the requests of one turn of the event loop, as requests parsed together come', async () => {
      const { client, user } = await signedInClient(server);
      const created = await createKey(client);
      const { reads, result: identities } = await countingKeyReads(() => {
        // The later request comes in a callback of the same turn, after the first has asked: as
        // two sockets' requests read in one poll of the loop (on SQLite a read otherwise ends
        // before the next request is even parsed, so none was ever shared under load).
        const later = new Promise<Identity>((resolve) => {
          setImmediate(() => resolve(server.services.apiKeys.authenticate(created.key)));
        });
        return Promise.all([server.services.apiKeys.authenticate(created.key), later]);
      });
      expect(identities.map((identity) => identity?.userId)).toEqual([user.id, user.id]);
      expect(reads).toBe(1);
    });

    it('refuses a request that asks after the revoke, even while an earlier read waits to run', async () => {
      const { client } = await signedInClient(server);
      const created = await createKey(client);
      const before = server.services.apiKeys.authenticate(created.key);
      expect((await client.delete(`/api/keys/${created.id}`)).status).toBe(200);
      expect(await server.services.apiKeys.authenticate(created.key)).toBeNull();
      // The earlier request was under way with the revoke: either answer is right for it.
      await before;
    });

    it('reads again once the shared read has answered, so a revoked key stops at once', async () => {
      const { client } = await signedInClient(server);
      const created = await createKey(client);
      expect(await server.services.apiKeys.authenticate(created.key)).not.toBeNull();
      expect((await client.delete(`/api/keys/${created.id}`)).status).toBe(200);
      expect(await server.services.apiKeys.authenticate(created.key)).toBeNull();
    });
  });

  describe('DELETE /api/keys/{id}', () => {
    it('revokes the key: it leaves the list and no longer authenticates', async () => {
      const { client } = await signedInClient(server);
      const created = await createKey(client);
      expect(await server.services.apiKeys.authenticate(created.key)).not.toBeNull();

      const response = await client.delete(`/api/keys/${created.id}`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ success: true, message: k.revoked });
      expect(await listKeys(client)).toEqual([]);
      expect(await server.services.apiKeys.authenticate(created.key)).toBeNull();
      // Soft: the row stays for the audit trail.
      const row = (await server.db('api_keys').where({ id: created.id }).first()) as { revokedAt: unknown } | undefined;
      expect(row?.revokedAt).toBeTruthy();

      const again = await client.delete(`/api/keys/${created.id}`);
      expect(again.status).toBe(404);
      expect(again.body).toMatchObject({ error: k.notFound });
    });

    it("answers 404 for another user's key and leaves it working", async () => {
      const { client: owner } = await signedInClient(server);
      const { client: other } = await signedInClient(server);
      const created = await createKey(owner);
      const response = await other.delete(`/api/keys/${created.id}`);
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ error: k.notFound, code: 'api_key_not_found' });
      expect(await listKeys(owner)).toHaveLength(1);
      expect(await server.services.apiKeys.authenticate(created.key)).not.toBeNull();
    });

    it('refuses an id that is not a number', async () => {
      const { client } = await signedInClient(server);
      expect((await client.delete('/api/keys/abc')).status).toBe(400);
    });
  });

  describe('the public API rate limit (the store of this database)', () => {
    it('counts an IP against the default of 100 per 15 minutes', async () => {
      const limiter = server.services.apiRateLimit;
      expect(limiter.defaultPer15Min).toBe(100);
      const ip = `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
      let last = await limiter.consume({ ip, key: null });
      expect(last).toMatchObject({ allowed: true, scope: 'ip', limit: 100, remaining: 99 });
      for (let n = 2; n <= 100; n += 1) last = await limiter.consume({ ip, key: null });
      expect(last).toMatchObject({ allowed: true, remaining: 0 });
      const refused = await limiter.consume({ ip, key: null });
      expect(refused).toMatchObject({ allowed: false, remaining: 0 });
      expect(refused.retryAfterSeconds).toBeGreaterThan(800);
      expect(refused.resetAt.getTime()).toBeGreaterThan(Date.now());
    });

    it('counts a key with its own limit against the key, whatever the IP', async () => {
      const { client } = await signedInClient(server);
      const created = await createKey(client);
      await admin.put(`/api/admin/api-keys/${created.id}/rate-limit`, { rateLimitPer15Min: 2 });
      const identity = await server.services.apiKeys.authenticate(created.key);
      const key = { id: created.id, rateLimitPer15Min: identity?.rateLimitPer15Min ?? null };
      const limiter = server.services.apiRateLimit;
      expect(await limiter.consume({ ip: '10.1.1.1', key })).toMatchObject({ allowed: true, scope: 'key', limit: 2, remaining: 1 });
      expect(await limiter.consume({ ip: '10.1.1.2', key })).toMatchObject({ allowed: true, remaining: 0 });
      expect(await limiter.consume({ ip: '10.1.1.3', key })).toMatchObject({ allowed: false, scope: 'key' });
    });

    it('counts requests that come together one by one: exactly the limit pass, each told what remains', async () => {
      const { client } = await signedInClient(server);
      const created = await createKey(client);
      await admin.put(`/api/admin/api-keys/${created.id}/rate-limit`, { rateLimitPer15Min: 5 });
      const key = { id: created.id, rateLimitPer15Min: 5 };
      const limiter = server.services.apiRateLimit;
      const first = limiter.consume({ ip: '10.2.2.2', key });
      // These come while the first write is under way and share the next one.
      const decisions = await Promise.all([first, ...Array.from({ length: 7 }, () => limiter.consume({ ip: '10.2.2.2', key }))]);
      expect(decisions.filter((d) => d.allowed)).toHaveLength(5);
      expect(decisions.map((d) => d.remaining)).toEqual([4, 3, 2, 1, 0, 0, 0, 0]);
      expect(decisions.slice(5).every((d) => !d.allowed && d.retryAfterSeconds > 0)).toBe(true);
      if (server.config.database.kind === 'postgresql') {
        // Counted in the shared table with fewer writes than requests, to the same total.
        const row = (await server.db('rate_limits').where({ key: `public_api_key:${created.id}` }).first('points')) as { points: number } | undefined;
        expect(Number(row?.points)).toBe(8);
      }
    });
  });

  describe('administrators', () => {
    it("list a user's keys, revoked ones included", async () => {
      const { client, user } = await signedInClient(server);
      const kept = await createKey(client, 'Kept');
      const revoked = await createKey(client, 'Revoked');
      await client.delete(`/api/keys/${revoked.id}`);

      const response = await admin.get<{ data: TAdminApiKey[] }>(`/api/admin/users/${user.id}/api-keys`);
      expect(response.status).toBe(200);
      const byName = Object.fromEntries(response.body.data.map((key) => [key.name, key]));
      expect(byName.Kept).toMatchObject({ id: kept.id, prefix: kept.prefix, revokedAt: null });
      expect(byName.Revoked?.revokedAt).not.toBeNull();
      expect(JSON.stringify(response.body)).not.toContain(kept.key);

      expect((await admin.get('/api/admin/users/999999/api-keys')).status).toBe(404);
      expect((await client.get(`/api/admin/users/${user.id}/api-keys`)).status).toBe(403);
    });

    it("raise a key's rate limit and set it back to the default, audited", async () => {
      const { client } = await signedInClient(server);
      const created = await createKey(client);

      const raised = await admin.put<{ message: string; data: TAdminApiKey }>(`/api/admin/api-keys/${created.id}/rate-limit`, { rateLimitPer15Min: 1000 });
      expect(raised.status).toBe(200);
      expect(raised.body).toMatchObject({ message: k.rateLimitUpdated, data: { id: created.id, rateLimitPer15Min: 1000 } });
      expect((await listKeys(client))[0]?.rateLimitPer15Min).toBe(1000);
      expect((await server.services.apiKeys.authenticate(created.key))?.rateLimitPer15Min).toBe(1000);

      const audit = (await server.db('audit_log').where({ action: 'api_key.rate_limit', targetId: String(created.id) })) as { details: string }[];
      expect(audit).toHaveLength(1);
      expect(JSON.parse(audit[0]?.details ?? '{}')).toMatchObject({ from: null, to: 1000 });

      const reset = await admin.put<{ data: TAdminApiKey }>(`/api/admin/api-keys/${created.id}/rate-limit`, { rateLimitPer15Min: null });
      expect(reset.status).toBe(200);
      expect(reset.body.data.rateLimitPer15Min).toBeNull();
    });

    it.each([[{ rateLimitPer15Min: 0 }], [{ rateLimitPer15Min: 2.5 }], [{ rateLimitPer15Min: '500' }], [{}], [{ rateLimitPer15Min: API_KEYS.rateLimitMax + 1 }]])(
      'refuse the rate limit %j with 400',
      async (body) => {
        const { client } = await signedInClient(server);
        const created = await createKey(client);
        const response = await admin.put(`/api/admin/api-keys/${created.id}/rate-limit`, body);
        expect(response.status).toBe(400);
        expect(response.body).toMatchObject({ field: 'rateLimitPer15Min' });
      },
    );

    it('are the only ones who can set a rate limit', async () => {
      const { client } = await signedInClient(server);
      const created = await createKey(client);
      expect((await client.put(`/api/admin/api-keys/${created.id}/rate-limit`, { rateLimitPer15Min: 1000 })).status).toBe(403);
      expect((await admin.put('/api/admin/api-keys/999999/rate-limit', { rateLimitPer15Min: 1000 })).status).toBe(404);
    });
  });
});
