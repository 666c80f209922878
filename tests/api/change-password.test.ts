import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH } from '@shared/constants';
import { fillMessage, messages } from '@shared/messages';
import { TestClient } from '../../server/test/client';
import { signedInClient } from '../../server/test/factories';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';

describe.skipIf(postgresUnavailable)('POST /api/auth/change-password', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('changes the password, keeps this session, ends the others and audits the change', async () => {
    const { client, user } = await signedInClient(server);
    const otherDevice = new TestClient(server.url);
    expect((await otherDevice.post('/api/auth/login', { username: user.username, password: user.plainPassword })).status).toBe(200);

    const response = await client.post('/api/auth/change-password', { currentPassword: user.plainPassword, newPassword: 'a-new-pass-2' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, message: messages.auth.passwordChanged });

    expect((await client.get('/api/auth/me')).status).toBe(200);
    expect((await otherDevice.get('/api/auth/me')).status).toBe(401);
    const fresh = new TestClient(server.url);
    expect((await fresh.post('/api/auth/login', { username: user.username, password: user.plainPassword })).status).toBe(401);
    expect((await fresh.post('/api/auth/login', { username: user.username, password: 'a-new-pass-2' })).status).toBe(200);
    const audit = await server.db('audit_log').where({ action: 'user.password_change_self', targetId: String(user.id) });
    expect(audit).toHaveLength(1);
  });

  it('refuses a wrong current password with 400 on the field, and keeps the password', async () => {
    const { client, user } = await signedInClient(server);
    const response = await client.post('/api/auth/change-password', { currentPassword: 'not-my-pass', newPassword: 'a-new-pass-2' });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: messages.auth.currentPasswordIncorrect, code: 'current_password_incorrect', field: 'currentPassword' });
    expect((await new TestClient(server.url).post('/api/auth/login', { username: user.username, password: user.plainPassword })).status).toBe(200);
  });

  it('applies the signup strength rules and refuses the same password', async () => {
    const { client, user } = await signedInClient(server);
    const short = await client.post('/api/auth/change-password', { currentPassword: user.plainPassword, newPassword: 'abc' });
    expect(short.status).toBe(400);
    expect(short.body).toMatchObject({ error: messages.validation.passwordMin });
    const missing = await client.post('/api/auth/change-password', { newPassword: 'a-new-pass-2' });
    expect(missing.body).toMatchObject({ error: messages.auth.currentPasswordRequired });
    const same = await client.post('/api/auth/change-password', { currentPassword: user.plainPassword, newPassword: user.plainPassword });
    expect(same.body).toMatchObject({ error: messages.auth.newPasswordSameAsCurrent, field: 'newPassword' });
  });

  it('answers 401 without a session', async () => {
    const response = await new TestClient(server.url).post('/api/auth/change-password', { currentPassword: 'x', newPassword: 'a-new-pass-2' });
    expect(response.status).toBe(401);
  });

  it('stops guessing after too many wrong current passwords, even with the right one', async () => {
    const { client, user } = await signedInClient(server);
    for (let attempt = 0; attempt < AUTH.changePasswordFailuresPerUser; attempt += 1) {
      expect((await client.post('/api/auth/change-password', { currentPassword: `guess-${attempt}`, newPassword: 'a-new-pass-2' })).status).toBe(400);
    }
    const blocked = await client.post('/api/auth/change-password', { currentPassword: user.plainPassword, newPassword: 'a-new-pass-2' });
    expect(blocked.status).toBe(429);
    expect(blocked.body).toMatchObject({ code: 'too_many_password_changes', error: fillMessage(messages.auth.changePasswordTooMany, { minutes: 15 }) });
  });
});
