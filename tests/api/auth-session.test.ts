import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../../server/test/client';
import { ManualClock } from '../../server/test/clock';
import { signedInClient } from '../../server/test/factories';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';

const IDLE_TIMEOUT_SECONDS = 600;

/** The web app's start-up asks who is signed in; a visitor is an answer, not an error. */
describe.skipIf(postgresUnavailable)('GET /api/auth/session', () => {
  let server: TestServer;
  const clock = new ManualClock();
  beforeAll(async () => {
    server = await startTestServer({ SESSION_IDLE_TIMEOUT_SECONDS: String(IDLE_TIMEOUT_SECONDS) }, { sessionClock: clock.now });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers 200 { user: null } to a visitor, uncached, while /api/auth/me keeps its 401', async () => {
    const visitor = new TestClient(server.url);
    const session = await visitor.get('/api/auth/session');
    expect(session.status).toBe(200);
    expect(session.body).toEqual({ user: null });
    expect(session.headers.get('cache-control')).toBe('no-store');
    const me = await visitor.get('/api/auth/me');
    expect(me.status).toBe(401);
  });

  it('answers the signed-in user with the same presenter as /api/auth/me', async () => {
    const { client, user } = await signedInClient(server);
    const me = await client.get('/api/auth/me');
    const session = await client.get('/api/auth/session');
    expect(session.status).toBe(200);
    expect(session.body).toEqual({ user: me.body.user, idleTimeoutSeconds: IDLE_TIMEOUT_SECONDS });
    expect(session.body).toMatchObject({ user: { id: user.id, username: user.username } });
    expect(session.body.user).not.toHaveProperty('password');
    expect(session.body.user).not.toHaveProperty('passwordHash');
  });

  it('knows a desktop session given as a bearer token', async () => {
    const { user } = await signedInClient(server);
    const login = await new TestClient(server.url).post('/api/auth/login', { username: user.username, password: user.plainPassword }, { 'X-Client': 'desktop' });
    const desktop = new TestClient(server.url).useBearer(login.body.token as string);
    expect((await desktop.get('/api/auth/session')).body).toMatchObject({ user: { id: user.id } });
  });

  it('answers { user: null } after logout and for a forged cookie', async () => {
    const { client } = await signedInClient(server);
    expect((await client.post('/api/auth/logout')).status).toBe(200);
    expect((await client.get('/api/auth/session')).body).toEqual({ user: null });
    const forged = new TestClient(server.url).useBearer('x'.repeat(43));
    const answer = await forged.get('/api/auth/session');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ user: null });
  });

  it('treats an expired session as a visitor, and does not keep a session alive itself', async () => {
    const { client } = await signedInClient(server);
    clock.advance(0.6 * IDLE_TIMEOUT_SECONDS * 1000);
    expect((await client.get('/api/auth/session')).body).toMatchObject({ user: { role: 'user' } });
    clock.advance(0.6 * IDLE_TIMEOUT_SECONDS * 1000);
    const session = await client.get('/api/auth/session');
    expect(session.status).toBe(200);
    expect(session.body).toEqual({ user: null });
    expect((await client.get('/api/auth/me')).status).toBe(401);
  });
});
