import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@shared/messages';
import { ManualClock } from '../../server/test/clock';
import { signedInClient } from '../../server/test/factories';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';

const IDLE_TIMEOUT_SECONDS = 600;
/** Most of the idle timeout: twice this is past it. */
const MOST_OF_IT_MS = 0.6 * IDLE_TIMEOUT_SECONDS * 1000;

/** Sessions are judged by a clock the test moves, so no test waits out a real timeout. */
describe.skipIf(postgresUnavailable)(`session inactivity timeout (SESSION_IDLE_TIMEOUT_SECONDS=${IDLE_TIMEOUT_SECONDS}, on a clock the test moves)`, () => {
  let server: TestServer;
  const clock = new ManualClock();
  beforeAll(async () => {
    server = await startTestServer({ SESSION_IDLE_TIMEOUT_SECONDS: String(IDLE_TIMEOUT_SECONDS) }, { sessionClock: clock.now });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('tells the client the timeout', async () => {
    const { client } = await signedInClient(server);
    expect((await client.get('/api/auth/me')).body).toMatchObject({ idleTimeoutSeconds: IDLE_TIMEOUT_SECONDS });
    expect((await client.get('/api/public-config')).body).toMatchObject({ idleTimeoutSeconds: IDLE_TIMEOUT_SECONDS });
  });

  it('ends an idle session on the server, even though GET /api/auth/me was called', async () => {
    const { client } = await signedInClient(server);
    clock.advance(MOST_OF_IT_MS);
    expect((await client.get('/api/auth/me')).status).toBe(200);
    clock.advance(MOST_OF_IT_MS);
    const response = await client.get('/api/auth/me');
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ code: 'session_expired', error: messages.auth.sessionExpired });
  });

  it('keeps a session alive with POST /api/auth/reset-activity', async () => {
    const { client } = await signedInClient(server);
    for (let i = 0; i < 3; i += 1) {
      clock.advance(MOST_OF_IT_MS);
      const response = await client.post('/api/auth/reset-activity');
      expect(response.status).toBe(200);
    }
    expect((await client.get('/api/auth/me')).status).toBe(200);
  });

  it('counts a state-changing call as activity', async () => {
    const { client } = await signedInClient(server);
    clock.advance(MOST_OF_IT_MS);
    expect((await client.put('/api/auth/update-profile', { name: 'Still Here', email: `still${Date.now()}@example.in` })).status).toBe(200);
    clock.advance(MOST_OF_IT_MS);
    expect((await client.get('/api/auth/me')).status).toBe(200);
  });

  it('refuses reset-activity once the session has expired', async () => {
    const { client } = await signedInClient(server);
    clock.advance(IDLE_TIMEOUT_SECONDS * 1000 + 1);
    expect((await client.post('/api/auth/reset-activity')).status).toBe(401);
  });

  it('ends a session at its absolute age however active it is (SESSION_MAX_AGE_HOURS=24)', async () => {
    const { client } = await signedInClient(server);
    for (let elapsedMs = 0; elapsedMs < 24 * 3_600_000 - MOST_OF_IT_MS; elapsedMs += MOST_OF_IT_MS) {
      clock.advance(MOST_OF_IT_MS);
      expect((await client.post('/api/auth/reset-activity')).status).toBe(200);
    }
    clock.advance(MOST_OF_IT_MS);
    expect((await client.post('/api/auth/reset-activity')).status).toBe(401);
  });
});
