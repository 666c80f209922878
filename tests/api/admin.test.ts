import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillMessage, messages } from '@shared/messages';
import type { TAdminStats, TAdminUser } from '@shared/types';
import { TestClient } from '../../server/test/client';
import { buildUser, signedInClient, uniqueName } from '../../server/test/factories';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';

describe.skipIf(postgresUnavailable)('admin users API', () => {
  let server: TestServer;
  let admin: TestClient;
  beforeAll(async () => {
    server = await startTestServer();
    ({ client: admin } = await signedInClient(server, { role: 'admin' }));
  });
  afterAll(async () => {
    await server?.close();
  });

  const newUserPayload = (overrides: Record<string, unknown> = {}) => {
    const username = uniqueName('made');
    return { name: 'Made By Admin', email: `${username}@example.in`, username, password: 'initial-pass', phoneNumber: '919812345678', ...overrides };
  };

  describe('role checks', () => {
    it.each([
      ['GET', '/api/admin/users'],
      ['GET', '/api/admin/stats'],
      ['POST', '/api/admin/users'],
      ['DELETE', '/api/admin/users/1'],
    ])('%s %s answers 401 to a visitor and 403 to a user', async (method, path) => {
      const visitor = await new TestClient(server.url).request(method, path, method === 'POST' ? newUserPayload() : undefined);
      expect(visitor.status).toBe(401);
      const { client } = await signedInClient(server);
      const user = await client.request(method, path, method === 'POST' ? newUserPayload() : undefined);
      expect(user.status).toBe(403);
      expect(user.body).toMatchObject({ error: messages.auth.adminRequired, code: 'admin_required' });
    });
  });

  describe('POST /api/admin/users', () => {
    it('creates a user with 1000 credits by default, recorded in the ledger', async () => {
      const payload = newUserPayload();
      const response = await admin.post<{ user: TAdminUser }>('/api/admin/users', payload);
      expect(response.status).toBe(201);
      expect(response.body.user).toMatchObject({ username: payload.username, role: 'user', creditBalance: 1000, isConfigured: false });
      const client = new TestClient(server.url);
      await client.post('/api/auth/login', { username: payload.username, password: payload.password });
      const history = await client.get<{ history: { type: string; amount: number }[] }>('/api/credits/history');
      expect(history.body.history).toEqual([expect.objectContaining({ type: 'OPENING_BALANCE_ADD', amount: 1000 })]);
    });

    it('takes the role and balance of the payload, and audits the creation', async () => {
      const payload = newUserPayload({ role: 'admin', creditBalance: 0 });
      const response = await admin.post<{ user: TAdminUser }>('/api/admin/users', payload);
      expect(response.body.user).toMatchObject({ role: 'admin', creditBalance: 0 });
      const audit = await server.db('audit_log').where({ action: 'user.create', targetId: String(response.body.user.id) }).first();
      expect(audit).toBeTruthy();
    });

    it.each([
      [{ creditBalance: -5 }, messages.validation.creditBalanceNegative, 'creditBalance'],
      [{ email: 'nope' }, messages.validation.emailInvalidAdmin, 'email'],
      [{ name: '' }, messages.validation.nameRequired, 'name'],
      [{ username: '' }, messages.validation.usernameRequired, 'username'],
      [{ password: '123' }, messages.validation.passwordMin, 'password'],
      [{ role: 'owner' }, messages.validation.roleInvalid, 'role'],
    ])('refuses %j', async (overrides, message, field) => {
      const response = await admin.post('/api/admin/users', newUserPayload(overrides));
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ error: message, field });
    });

    it('refuses a taken username with 409', async () => {
      const existing = await buildUser(server);
      const response = await admin.post('/api/admin/users', newUserPayload({ username: existing.username }));
      expect(response.status).toBe(409);
      expect(response.body).toMatchObject({ field: 'username' });
    });
  });

  describe('GET /api/admin/users and /api/admin/stats', () => {
    it('lists users with the Configured flag in one call', async () => {
      const made = await buildUser(server, { creditRupees: 12.34 });
      const response = await admin.get<{ users: TAdminUser[] }>('/api/admin/users');
      expect(response.status).toBe(200);
      const row = response.body.users.find((u) => u.id === made.id);
      expect(row).toMatchObject({ username: made.username, creditBalance: 12.34, isConfigured: false, businessInfo: null });
      expect(row).not.toHaveProperty('passwordHash');
    });

    it('counts users and sums credits', async () => {
      const before = (await admin.get<{ stats: TAdminStats }>('/api/admin/stats')).body.stats;
      await buildUser(server, { creditRupees: 100.25 });
      await buildUser(server, { role: 'admin' });
      const after = (await admin.get<{ stats: TAdminStats }>('/api/admin/stats')).body.stats;
      expect(after.totalUsers - before.totalUsers).toBe(2);
      expect(after.regularUsers - before.regularUsers).toBe(1);
      expect(after.adminUsers - before.adminUsers).toBe(1);
      expect(Math.round((after.totalCredits - before.totalCredits) * 100) / 100).toBe(100.25);
      expect(after.configuredUsers).toBe(0);
    });
  });

  describe('DELETE /api/admin/users/:id', () => {
    it('deletes a user: gone from the list, sessions ended, username free again', async () => {
      const { client, user } = await signedInClient(server);
      const response = await admin.delete(`/api/admin/users/${user.id}`);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ success: true, message: messages.admin.userDeleted });
      expect((await client.get('/api/auth/me')).status).toBe(401);
      const list = await admin.get<{ users: TAdminUser[] }>('/api/admin/users');
      expect(list.body.users.some((u) => u.id === user.id)).toBe(false);
      expect((await admin.post('/api/admin/users', newUserPayload({ username: user.username, email: user.email }))).status).toBe(201);
    });

    it('refuses to delete a user who holds a balance until that balance is confirmed, and says how much', async () => {
      const { client, user } = await signedInClient(server, { creditRupees: 1234.5 });
      const refused = await admin.delete(`/api/admin/users/${user.id}`);
      expect(refused.status).toBe(409);
      const unconfirmed = fillMessage(messages.admin.deleteUserBalanceUnconfirmed, { amount: '₹1,234.50' });
      expect(refused.body).toMatchObject({ error: unconfirmed, code: 'balance_not_confirmed', field: 'confirm_balance' });
      expect((await client.get('/api/auth/me')).status).toBe(200);
      // A balance other than the one held (it changed since the admin looked) is refused too.
      expect((await admin.delete(`/api/admin/users/${user.id}?confirm_balance=1000`)).status).toBe(409);
      expect((await admin.delete(`/api/admin/users/${user.id}?confirm_balance=lots`)).status).toBe(400);

      const deleted = await admin.delete(`/api/admin/users/${user.id}?confirm_balance=1234.50`);
      expect(deleted.status).toBe(200);
      expect(deleted.body).toMatchObject({ success: true, message: messages.admin.userDeleted });
      expect((await client.get('/api/auth/me')).status).toBe(401);
      const audit = await server.db('audit_log').where({ action: 'user.delete', targetId: String(user.id) }).first();
      expect(JSON.stringify(audit)).toContain('1234.5');
    });

    it('answers 404 for an unknown or already deleted user', async () => {
      const user = await buildUser(server);
      expect((await admin.delete(`/api/admin/users/${user.id}`)).status).toBe(200);
      const again = await admin.delete(`/api/admin/users/${user.id}`);
      expect(again.status).toBe(404);
      expect(again.body).toMatchObject({ error: messages.admin.userNotFound });
      expect((await admin.delete('/api/admin/users/99999999')).status).toBe(404);
    });

    it('refuses a malformed id with 400', async () => {
      const response = await admin.delete('/api/admin/users/abc');
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ error: messages.validation.invalidId });
    });

    it('will not let an admin delete their own account', async () => {
      const { client, user } = await signedInClient(server, { role: 'admin' });
      const response = await client.delete(`/api/admin/users/${user.id}`);
      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({ error: messages.admin.cannotDeleteSelf });
    });
  });
});
