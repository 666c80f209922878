import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@shared/messages';
import { TestClient } from '../../server/test/client';
import { buildUser, signedInClient, uniqueName } from '../../server/test/factories';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';

const v = messages.validation;

describe.skipIf(postgresUnavailable)('accounts API', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  const anonymous = () => new TestClient(server.url);

  function signupPayload(overrides: Record<string, unknown> = {}) {
    const username = uniqueName('signup');
    return {
      name: 'Asha Verma',
      email: `${username}@example.in`,
      username,
      password: 'pass1234',
      confirmPassword: 'pass1234',
      phoneNumber: '919876543210',
      ...overrides,
    };
  }

  describe('POST /api/auth/signup', () => {
    it('creates an account with 0 credits and does not sign in', async () => {
      const client = anonymous();
      const payload = signupPayload();
      const response = await client.post('/api/auth/signup', payload);
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({
        success: true,
        message: messages.auth.signupSuccess,
        user: { username: payload.username, email: payload.email, role: 'user', creditBalance: 0, phoneNumber: '919876543210' },
      });
      expect(response.body).not.toHaveProperty('user.passwordHash');
      expect((await client.get('/api/auth/me')).status).toBe(401);
    });

    it('accepts a signup without a phone number', async () => {
      const response = await anonymous().post('/api/auth/signup', signupPayload({ phoneNumber: '' }));
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({ user: { phoneNumber: null } });
    });

    it('accepts "+91 98765-43210" as forgot-password and Quick Send do, and stores 919876543210', async () => {
      const payload = signupPayload({ phoneNumber: '+91 98765-43210' });
      const response = await anonymous().post('/api/auth/signup', payload);
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      expect(response.body).toMatchObject({ user: { phoneNumber: '919876543210' } });
      const stored = (await server.db('users').where({ username: payload.username }).first()) as { phoneNumber: string } | undefined;
      expect(stored?.phoneNumber).toBe('919876543210');
    });

    it.each([
      ['name', { name: '' }, v.nameRequired],
      ['name', { name: 'A' }, v.nameMin],
      ['email', { email: '' }, v.emailRequired],
      ['email', { email: 'not-an-email' }, v.emailInvalid],
      ['username', { username: '' }, v.usernameRequired],
      ['username', { username: 'ab' }, v.usernameMin],
      ['username', { username: 'bad name!' }, v.usernameChars],
      ['password', { password: '', confirmPassword: '' }, v.passwordRequired],
      ['password', { password: '12345', confirmPassword: '12345' }, v.passwordMin],
      ['confirmPassword', { confirmPassword: '' }, v.confirmPasswordRequired],
      ['confirmPassword', { confirmPassword: 'different1' }, v.passwordsDoNotMatch],
      ['phoneNumber', { phoneNumber: '0919876543210' }, v.signupPhoneFormat],
      ['phoneNumber', { phoneNumber: '9876543210' }, v.signupPhoneFormat],
      ['phoneNumber', { phoneNumber: '+0919876543210' }, v.signupPhoneFormat],
      ['phoneNumber', { phoneNumber: '+91 98765' }, v.signupPhoneFormat],
    ])('refuses a bad %s with the spec message (%j)', async (field, overrides, message) => {
      const response = await anonymous().post('/api/auth/signup', signupPayload(overrides));
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ error: message, code: 'validation_error', field });
      expect(response.body.details).toContainEqual({ field, message });
    });

    it('lists every field error in details', async () => {
      const response = await anonymous().post('/api/auth/signup', {});
      expect(response.status).toBe(400);
      const fields = (response.body.details as { field: string }[]).map((d) => d.field);
      expect(fields).toEqual(expect.arrayContaining(['name', 'email', 'username', 'password', 'confirmPassword']));
    });

    it('refuses a taken username, whatever its case, with 409', async () => {
      const existing = await buildUser(server);
      const response = await anonymous().post('/api/auth/signup', signupPayload({ username: existing.username.toUpperCase() }));
      expect(response.status).toBe(409);
      expect(response.body).toMatchObject({ error: messages.auth.usernameTaken, code: 'username_taken', field: 'username' });
    });

    it('refuses a registered e-mail with 409', async () => {
      const existing = await buildUser(server);
      const response = await anonymous().post('/api/auth/signup', signupPayload({ email: existing.email.toUpperCase() }));
      expect(response.status).toBe(409);
      expect(response.body).toMatchObject({ error: messages.auth.emailTaken, field: 'email' });
    });

    it('lets exactly one of two racing signups for one username through', async () => {
      const username = uniqueName('race');
      const results = await Promise.all(
        [1, 2, 3].map((n) => anonymous().post('/api/auth/signup', signupPayload({ username, email: `${username}${n}@example.in` }))),
      );
      expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    });
  });

  describe('POST /api/auth/login', () => {
    it('signs in with a session cookie and answers the user', async () => {
      const user = await buildUser(server, { creditRupees: 250.5 });
      const client = anonymous();
      const response = await client.post('/api/auth/login', { username: user.username, password: user.plainPassword });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        success: true,
        message: messages.auth.loginSuccess,
        user: { id: user.id, username: user.username, role: 'user', creditBalance: 250.5 },
        idleTimeoutSeconds: 600,
      });
      expect(response.body).not.toHaveProperty('token');
      const setCookie = response.headers.getSetCookie().join('\n');
      expect(setCookie).toMatch(/sandesh_session=/);
      expect(setCookie).toMatch(/httponly/i);
      expect(setCookie).toMatch(/samesite=lax/i);
      const me = await client.get('/api/auth/me');
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ user: { id: user.id } });
    });

    it('accepts the username in any case', async () => {
      const user = await buildUser(server);
      const response = await anonymous().post('/api/auth/login', { username: user.username.toUpperCase(), password: user.plainPassword });
      expect(response.status).toBe(200);
    });

    it('answers a desktop client with a bearer token and no cookie', async () => {
      const user = await buildUser(server);
      const client = anonymous();
      const response = await client.post('/api/auth/login', { username: user.username, password: user.plainPassword }, { 'X-Client': 'desktop' });
      expect(response.status).toBe(200);
      expect(typeof response.body.token).toBe('string');
      expect(response.headers.getSetCookie()).toHaveLength(0);
      const desktop = anonymous().useBearer(response.body.token as string);
      expect((await desktop.get('/api/auth/me')).body).toMatchObject({ user: { id: user.id } });
    });

    it.each([
      [{ password: 'x' }, v.usernameRequired, 'username'],
      [{ username: 'someone' }, v.passwordRequired, 'password'],
      [{ username: '   ', password: 'x' }, v.usernameRequired, 'username'],
    ])('refuses %j with the spec message', async (payload, message, field) => {
      const response = await anonymous().post('/api/auth/login', payload);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ error: message, field });
    });

    it('refuses a wrong password and an unknown username with the same 401', async () => {
      const user = await buildUser(server);
      const wrong = await anonymous().post('/api/auth/login', { username: user.username, password: 'wrong-password' });
      const unknown = await anonymous().post('/api/auth/login', { username: uniqueName('ghost'), password: 'whatever' });
      for (const response of [wrong, unknown]) {
        expect(response.status).toBe(401);
        expect(response.body).toEqual({ error: messages.auth.invalidCredentials, code: 'invalid_credentials' });
      }
    });

    it('refuses a deleted account', async () => {
      const user = await buildUser(server);
      await server.services.users.delete(user.id, { userId: null });
      const response = await anonymous().post('/api/auth/login', { username: user.username, password: user.plainPassword });
      expect(response.status).toBe(401);
    });
  });

  describe('GET /api/auth/me', () => {
    it('answers 401 to a visitor', async () => {
      const response = await anonymous().get('/api/auth/me');
      expect(response.status).toBe(401);
      expect(response.body).toMatchObject({ code: 'unauthorized', error: messages.auth.authenticationRequired });
    });

    it('is never cached and accepts a cache-busting t parameter', async () => {
      const { client } = await signedInClient(server);
      const response = await client.get(`/api/auth/me?t=${Date.now()}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
    });

    it('refuses a forged bearer token', async () => {
      const response = await anonymous().useBearer('A'.repeat(43)).get('/api/auth/me');
      expect(response.status).toBe(401);
    });
  });

  describe('PUT /api/auth/update-profile', () => {
    it('changes name and e-mail but never the username', async () => {
      const { client, user } = await signedInClient(server);
      const email = `${uniqueName('new')}@example.in`;
      const response = await client.put('/api/auth/update-profile', { name: 'New Name', email, username: 'hijack' });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ success: true, message: messages.auth.profileUpdated, user: { name: 'New Name', email, username: user.username } });
    });

    it('validates with the spec messages', async () => {
      const { client } = await signedInClient(server);
      const response = await client.put('/api/auth/update-profile', { name: 'N', email: 'bad' });
      expect(response.status).toBe(400);
      expect(response.body.details).toEqual([
        { field: 'name', message: v.nameMin },
        { field: 'email', message: v.emailInvalid },
      ]);
    });

    it("refuses another account's e-mail", async () => {
      const other = await buildUser(server);
      const { client } = await signedInClient(server);
      const response = await client.put('/api/auth/update-profile', { name: 'Some Body', email: other.email });
      expect(response.status).toBe(409);
      expect(response.body).toMatchObject({ field: 'email' });
    });

    it('answers 401 to a visitor', async () => {
      expect((await anonymous().put('/api/auth/update-profile', { name: 'Xy', email: 'x@y.in' })).status).toBe(401);
    });
  });

  describe('POST /api/auth/logout', () => {
    it('ends the session: a copied cookie stops working', async () => {
      const { client } = await signedInClient(server);
      const copy = anonymous();
      client.copyCookiesTo(copy);
      expect((await copy.get('/api/auth/me')).status).toBe(200);
      const response = await client.post('/api/auth/logout');
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ success: true });
      expect((await copy.get('/api/auth/me')).status).toBe(401);
      expect((await client.get('/api/auth/me')).status).toBe(401);
    });

    it('ends a desktop session given as a bearer token', async () => {
      const user = await buildUser(server);
      const login = await anonymous().post('/api/auth/login', { username: user.username, password: user.plainPassword }, { 'X-Client': 'desktop' });
      const desktop = anonymous().useBearer(login.body.token as string);
      expect((await desktop.post('/api/auth/logout')).status).toBe(200);
      expect((await desktop.get('/api/auth/me')).status).toBe(401);
    });

    it('succeeds for a visitor too', async () => {
      expect((await anonymous().post('/api/auth/logout')).status).toBe(200);
    });
  });
});
