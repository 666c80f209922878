import autocannon from 'autocannon';
import { signedInClient } from '../../server/test/factories';
import { startTestServer } from '../../server/test/server';
import { adminUser, approvedBenchTemplate } from './support';

/**
 * `POST /api/send` under load (autocannon, 32 connections, 10 s): each request a new recipient,
 * so every one is priced, debited and queued. The dispatcher is off so the figure is the API's own.
 * The key's rate limit is raised by an admin, as a heavy integrator's would be.
 */
export const publicApiBench = {
  name: 'public send API',
  async run(): Promise<void> {
    const server = await startTestServer({ DISPATCH_ENABLED: 'false' });
    try {
      const { user } = await signedInClient(server, { creditRupees: 10_000_000 });
      const template = await approvedBenchTemplate(server, user, 'bench_api');
      const { apiKey, key } = await server.services.apiKeys.create(user, 'bench');
      await server.services.apiKeys.setRateLimit(await adminUser(server), apiKey.id, 1_000_000_000);
      let sequence = 0;
      const result = await autocannon({
        url: `${server.url}/api/send`,
        connections: 32,
        duration: 10,
        requests: [
          {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
            setupRequest: (request) => ({
              ...request,
              body: JSON.stringify({ username: user.username, templatename: template.name, recipient_number: String(919_000_000_000 + sequence++), var1: 'Asha', var2: 'A1' }),
            }),
          },
        ],
      });
      const ok = result['2xx'];
      console.log(
        `  POST /api/send: ${Math.round(result.requests.average)} req/s (${ok.toLocaleString('en-IN')} accepted, ${result.non2xx} refused, ${result.errors} errors), latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms`,
      );
    } finally {
      await server.close();
    }
  },
};
