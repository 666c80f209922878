import { spawn } from 'node:child_process';
import { signedInClient } from '../../server/test/factories';
import { startTestServer } from '../../server/test/server';
import { adminUser, approvedBenchTemplate } from './support';

interface LoadResult {
  average: number;
  ok: number;
  non2xx: number;
  errors: number;
  p50: number;
  p99: number;
}

function runLoad(settings: Record<string, string>): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'tests/bench/apiLoad.ts', JSON.stringify(settings)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(output) as LoadResult) : reject(new Error(`load generator exited with ${code}`))));
  });
}

/**
 * `POST /api/send` under load: autocannon in its own process, 32 connections for 10 s, each
 * request a new recipient, so every one is priced, debited and queued. The dispatcher is off so
 * the figure is the API's own; the key's rate limit is raised by an admin, as a heavy
 * integrator's would be.
 */
export const publicApiBench = {
  name: 'public send API',
  async run(): Promise<void> {
    // The pool of a production instance (DATABASE_POOL_MAX default), not the tests' smaller one.
    const server = await startTestServer({ DISPATCH_ENABLED: 'false', DATABASE_POOL_MAX: '10' });
    try {
      const { user } = await signedInClient(server, { creditRupees: 10_000_000 });
      const template = await approvedBenchTemplate(server, user, 'bench_api');
      const { apiKey, key } = await server.services.apiKeys.create(user, 'bench');
      await server.services.apiKeys.setRateLimit(await adminUser(server), apiKey.id, 1_000_000_000);
      const result = await runLoad({ url: server.url, key, username: user.username, templatename: template.name, connections: '32', seconds: '10' });
      const campaigns = (await server.db('campaigns').where({ userId: user.id }).count({ n: '*' })) as { n: number | string }[];
      console.log(
        `  POST /api/send: ${Math.round(result.average)} req/s (${result.ok.toLocaleString('en-IN')} accepted in ${Number(campaigns[0]?.n).toLocaleString('en-IN')} group commits, ${result.non2xx} refused, ${result.errors} errors), latency p50 ${result.p50} ms, p99 ${result.p99} ms`,
      );
    } finally {
      await server.close();
    }
  },
};
