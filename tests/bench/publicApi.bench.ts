import { spawn } from 'node:child_process';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import Router from '@koa/router';
import { bodyParser } from '@koa/bodyparser';
import { signedInClient } from '../../server/test/factories';
import { startTestServer, type TestServer } from '../../server/test/server';
import { cpuSharesSince, cpuSnapshot, type CpuShares, type CpuSnapshot } from './cpuShares';
import { figureDb, printFigure } from './figures';
import { adminUser, approvedBenchTemplate } from './support';

const CONNECTIONS = '32';
const SECONDS = '10';
/**
 * Each target is loaded this long before it is measured, with other recipients: a server in
 * production has run before its busy minute (the JIT has compiled its paths, PostgreSQL has
 * statistics for its tables), where the bench's is seconds old.
 */
const WARM_UP_SECONDS = '2';
/** The warm-up's recipients start here, apart from the measured run's. */
const WARM_UP_FIRST_RECIPIENT = '500000000';
/** The latency target for `POST /api/send`. */
const P99_CEILING_MS = 100;

interface LoadResult {
  average: number;
  ok: number;
  non2xx: number;
  errors: number;
  p50: number;
  p99: number;
  /** The load generator's own CPU time while it loaded. */
  cpuMs: number;
}

interface MeasuredLoad extends LoadResult {
  /** Where the machine's CPU went from the load's start to its end. */
  cpu: CpuShares;
}

/** Runs the load generator; the CPU shares cover the load itself, not the generator's start-up. */
function runLoad(settings: Record<string, string>): Promise<MeasuredLoad> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'tests/bench/apiLoad.ts', JSON.stringify(settings)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    let started: CpuSnapshot | undefined;
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (!started && output.startsWith('start\n')) started = cpuSnapshot();
    });
    child.once('exit', (code) => {
      if (code !== 0 || !started) {
        reject(new Error(started ? `load generator exited with ${code}` : `load generator exited with ${code} before it started`));
        return;
      }
      const result = JSON.parse(output.slice('start\n'.length)) as LoadResult;
      resolve({ ...result, cpu: cpuSharesSince(started) });
    });
  });
}

/**
 * One line: each process's share of a core during the load and its CPU time per request, so that
 * a ratio is read against what the database and the load generator took of the same cores.
 */
function cpuLine(label: string, load: MeasuredLoad, db: 'sqlite' | 'postgresql'): string {
  const { cpu } = load;
  const perRequestMicros = (percent: number) => Math.round(((percent / 100) * 1e6) / load.average);
  const loadPercent = (load.cpuMs / 1000 / cpu.seconds) * 100;
  const parts = [`server ${Math.round(cpu.serverPercent)}% (${perRequestMicros(cpu.serverPercent)} µs a request)`];
  if (db === 'postgresql' && cpu.postgresPercent !== null) parts.push(`PostgreSQL ${Math.round(cpu.postgresPercent)}% (${perRequestMicros(cpu.postgresPercent)} µs)`);
  parts.push(`load generator ${Math.round(loadPercent)}% (${perRequestMicros(loadPercent)} µs)`, `idle ${Math.round(cpu.idlePercent)}% of ${cpu.cores * 100}%`);
  return `  ${label} CPU, shares of one core: ${parts.join(', ')}`;
}

async function campaignCount(server: TestServer, userId: number): Promise<number> {
  const rows = (await server.db('campaigns').where({ userId }).count({ n: '*' })) as { n: number | string }[];
  return Number(rows[0]?.n);
}

/**
 * The in-run ceiling of the public API: a bare Koa route on this machine, in this process as the
 * server is, parsing the same JSON body and answering the JSON `POST /api/send` answered, with
 * nothing behind it (no key, pricing, debit or database).
 */
async function startBareRoute(status: number, answer: unknown): Promise<{ url: string; server: Server }> {
  const app = new Koa();
  app.silent = true;
  const router = new Router();
  router.post('/api/send', (ctx) => {
    ctx.status = status;
    ctx.body = answer;
  });
  app.use(bodyParser({ enableTypes: ['json'] }));
  app.use(router.routes());
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/**
 * `POST /api/send` under load: autocannon in its own process, 32 connections for 10 s after a 2 s warm-up, each
 * request a new recipient, so every one is priced, debited and queued. The dispatcher is off so
 * the figure is the API's own; the key's rate limit is raised by an admin, as a heavy
 * integrator's would be. Then the same load generator against a bare Koa route answering the
 * same JSON: the machine's ceiling for an HTTP JSON API, in the same run.
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
      // One send before the load: the answer the bare route will give, byte for byte.
      const sample = await fetch(`${server.url}/api/send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify({ username: user.username, templatename: template.name, recipient_number: '918000000005', var1: 'Asha', var2: 'A1' }),
      });
      const sampleAnswer: unknown = await sample.json();
      if (sample.status >= 300) throw new Error(`POST /api/send answered ${sample.status}: ${JSON.stringify(sampleAnswer)}`);
      const load = { key, username: user.username, templatename: template.name, connections: CONNECTIONS };
      await runLoad({ ...load, url: server.url, seconds: WARM_UP_SECONDS, firstRecipient: WARM_UP_FIRST_RECIPIENT });
      const campaignsBefore = await campaignCount(server, user.id);
      const result = await runLoad({ ...load, url: server.url, seconds: SECONDS });
      const rounds = (await campaignCount(server, user.id)) - campaignsBefore;
      console.log(
        `  POST /api/send, after a ${WARM_UP_SECONDS} s warm-up: ${Math.round(result.average)} req/s (${result.ok.toLocaleString('en-IN')} accepted in ${rounds.toLocaleString('en-IN')} group commits, ${result.non2xx} refused, ${result.errors} errors), latency p50 ${result.p50} ms, p99 ${result.p99} ms`,
      );
      console.log(cpuLine('POST /api/send', result, server.config.database.kind));
      const bare = await startBareRoute(sample.status, sampleAnswer);
      let bareResult: MeasuredLoad;
      try {
        await runLoad({ ...load, url: bare.url, seconds: WARM_UP_SECONDS, firstRecipient: WARM_UP_FIRST_RECIPIENT });
        bareResult = await runLoad({ ...load, url: bare.url, seconds: SECONDS });
      } finally {
        bare.server.closeAllConnections();
        await new Promise<void>((resolve) => bare.server.close(() => resolve()));
      }
      console.log(
        `  bare Koa route, same JSON in and out: ${Math.round(bareResult.average)} req/s, latency p50 ${bareResult.p50} ms, p99 ${bareResult.p99} ms; ` +
          `the API reaches ${((result.average / bareResult.average) * 100).toFixed(1)}% of it (target >= 25%)`,
      );
      console.log(cpuLine('bare route', bareResult, server.config.database.kind));
      const db = figureDb(server.config.database.kind);
      printFigure({ db, figure: 'api_send_per_second', value: Math.round(result.average), ceiling: Math.round(bareResult.average), unit: 'requests/s' });
      printFigure({ db, figure: 'api_send_p99_ms', value: result.p99, ceiling: P99_CEILING_MS, unit: 'ms' });
    } finally {
      await server.close();
    }
  },
};
