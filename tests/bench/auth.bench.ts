import { TestClient } from '../../server/test/client';
import { buildUser } from '../../server/test/factories';
import { startTestServer } from '../../server/test/server';
import { measure, report } from './measure';

/** Login (argon2id-bound) and the authenticated read every page makes (GET /api/auth/me). */
export const authBench = {
  name: 'accounts and sessions',
  async run(): Promise<void> {
    const server = await startTestServer();
    try {
      const users = await Promise.all(Array.from({ length: 20 }, () => buildUser(server)));
      const login = await measure(200, 8, async (i) => {
        const user = users[i % users.length]!;
        const response = await new TestClient(server.url).post('/api/auth/login', { username: user.username, password: user.plainPassword });
        if (response.status !== 200) throw new Error(`login ${response.status}`);
      });
      report('POST /api/auth/login (concurrency 8)', login);

      const clients = await Promise.all(
        users.map(async (user) => {
          const client = new TestClient(server.url);
          await client.post('/api/auth/login', { username: user.username, password: user.plainPassword });
          return client;
        }),
      );
      const me = await measure(5_000, 16, async (i) => {
        const response = await clients[i % clients.length]!.get('/api/auth/me');
        if (response.status !== 200) throw new Error(`me ${response.status}`);
      });
      report('GET /api/auth/me (concurrency 16)', me);

      const activity = await measure(2_000, 16, async (i) => {
        const response = await clients[i % clients.length]!.post('/api/auth/reset-activity');
        if (response.status !== 200) throw new Error(`activity ${response.status}`);
      });
      report('POST /api/auth/reset-activity (conc. 16)', activity);
      console.log(`  peak RSS ${(process.memoryUsage().rss / 1024 / 1024).toFixed(0)} MB`);
    } finally {
      await server.close();
    }
  },
};
