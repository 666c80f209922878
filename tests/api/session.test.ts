import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@shared/messages';
import { signedInClient } from '../../server/test/factories';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(postgresUnavailable)('session inactivity timeout (SESSION_IDLE_TIMEOUT_SECONDS=2)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ SESSION_IDLE_TIMEOUT_SECONDS: '2' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('tells the client the timeout', async () => {
    const { client } = await signedInClient(server);
    expect((await client.get('/api/auth/me')).body).toMatchObject({ idleTimeoutSeconds: 2 });
    expect((await client.get('/api/public-config')).body).toMatchObject({ idleTimeoutSeconds: 2 });
  });

  it('ends an idle session on the server, even though GET /api/auth/me was called', async () => {
    const { client } = await signedInClient(server);
    await sleep(1200);
    expect((await client.get('/api/auth/me')).status).toBe(200);
    await sleep(1200);
    const response = await client.get('/api/auth/me');
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ code: 'session_expired', error: messages.auth.sessionExpired });
  });

  it('keeps a session alive with POST /api/auth/reset-activity', async () => {
    const { client } = await signedInClient(server);
    for (let i = 0; i < 3; i += 1) {
      await sleep(1200);
      const response = await client.post('/api/auth/reset-activity');
      expect(response.status).toBe(200);
    }
    expect((await client.get('/api/auth/me')).status).toBe(200);
  });

  it('counts a state-changing call as activity', async () => {
    const { client } = await signedInClient(server);
    await sleep(1200);
    expect((await client.put('/api/auth/update-profile', { name: 'Still Here', email: `still${Date.now()}@example.in` })).status).toBe(200);
    await sleep(1200);
    expect((await client.get('/api/auth/me')).status).toBe(200);
  });

  it('refuses reset-activity once the session has expired', async () => {
    const { client } = await signedInClient(server);
    await sleep(2300);
    expect((await client.post('/api/auth/reset-activity')).status).toBe(401);
  });
});
