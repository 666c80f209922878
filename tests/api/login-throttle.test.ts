import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../../server/test/client';
import { buildUser } from '../../server/test/factories';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';

describe.skipIf(postgresUnavailable)('wrong-password throttling', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  const attempt = (username: string, password: string) =>
    new TestClient(server.url).post('/api/auth/login', { username, password });

  it('blocks a username after five wrong passwords with 429 and a wait, even for the right password', async () => {
    const user = await buildUser(server);
    for (let i = 0; i < 5; i += 1) {
      expect((await attempt(user.username, 'wrong-one')).status).toBe(401);
    }
    const blocked = await attempt(user.username, 'wrong-one');
    expect(blocked.status).toBe(429);
    expect(blocked.body).toMatchObject({ code: 'too_many_login_attempts' });
    expect(String(blocked.body.error)).toMatch(/Too many failed login attempts\. Please try again in \d+ minutes\./);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await attempt(user.username, user.plainPassword)).status).toBe(429);
  });

  it('forgets earlier failures after a successful login', async () => {
    const user = await buildUser(server);
    for (let round = 0; round < 3; round += 1) {
      for (let i = 0; i < 4; i += 1) expect((await attempt(user.username, 'nope')).status).toBe(401);
      expect((await attempt(user.username, user.plainPassword)).status).toBe(200);
    }
  });

  it('blocks one address guessing many usernames', async () => {
    let status = 0;
    let tries = 0;
    // The per-IP budget (30) is shared with the tests above, so stop at the first 429.
    while (status !== 429 && tries < 40) {
      tries += 1;
      status = (await attempt(`nobody_${tries}`, 'guess')).status;
    }
    expect(status).toBe(429);
    expect(tries).toBeLessThanOrEqual(31);
  });
});
