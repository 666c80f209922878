/**
 * Scale-out over separate processes: server instances as child processes on one
 * PostgreSQL schema, and one simulator (in the test's process) served on one port per instance,
 * so that each instance's share is counted by the port its sends arrive on while the per-recipient
 * counts, buckets and webhooks stay those of one provider. Its status webhooks reach the instances
 * through a round-robin balancer, as Meta's reach instances behind a load balancer (ARCHITECTURE
 * "Scale"). Shared by tests/api/scale-out.test.ts and the scale-out bench.
 */
import type { AddressInfo } from 'node:net';
import { createServer, request as httpRequest, type Server } from 'node:http';
import Koa from 'koa';
import { bodyParser } from '@koa/bodyparser';
import knexFactory, { type Knex } from 'knex';
import { SIMULATOR_ACCESS_TOKEN } from '../src/sending/providerRegistry';
import { CloudApiSimulator } from '../src/simulator/cloudApiSimulator';
import { SimulatorOutbox } from '../src/simulator/outbox';
import { FLOW_TEMPLATE_BODY, freePort, TEST_WEBHOOK_RETRY } from './campaignFlow';
import { childProcessEnv, testDeployment, type TestDeployment } from './deployment';
import { ServerProcess } from './serverProcess';

const APP_SECRET = 'scale-out-app-secret';

/** What one port of the simulator took: accepted sends, and when the first and last arrived. */
export interface PortShare {
  sends: number;
  firstAt: number;
  lastAt: number;
}

export interface PortedSimulator {
  simulator: CloudApiSimulator;
  urls: string[];
  shares: PortShare[];
  close(): Promise<void>;
}

/** One CloudApiSimulator answering on `ports` ports (flow template, statuses within milliseconds). */
export async function startPortedSimulator(ports: number, messagesPerSecond: number): Promise<PortedSimulator> {
  const simulator = new CloudApiSimulator({
    outbox: new SimulatorOutbox(),
    resolveTemplate: () => [{ type: 'BODY', text: FLOW_TEMPLATE_BODY }],
    accessToken: SIMULATOR_ACCESS_TOKEN,
    messagesPerSecond,
    delays: { sentMs: 5, deliveredMs: 15, readMs: 30, jitterRatio: 0.2 },
    webhook: null,
    maxStatusesPerPost: 500,
    // A POST an instance refused (stopping, or its database connections lost) is posted again.
    webhookRetry: TEST_WEBHOOK_RETRY,
    onWebhookError: () => undefined,
  });
  const servers: Server[] = [];
  const shares: PortShare[] = [];
  const urls: string[] = [];
  for (let i = 0; i < ports; i++) {
    const share: PortShare = { sends: 0, firstAt: 0, lastAt: 0 };
    const app = new Koa();
    app.silent = true;
    app.use(async (ctx, next) => {
      await next();
      // Sends only: the sender's template is created here too (our approval submits it to "Meta").
      if (ctx.method === 'POST' && ctx.status === 200 && ctx.path.endsWith('/messages')) {
        const now = performance.now();
        if (share.sends === 0) share.firstAt = now;
        share.lastAt = now;
        share.sends += 1;
      }
    });
    app.use(bodyParser({ enableTypes: ['json'], jsonLimit: '1mb' }));
    app.use(simulator.router().routes());
    const server = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve, reject) => {
      server.once('listening', resolve);
      server.once('error', reject);
    });
    server.keepAliveTimeout = 5_000;
    servers.push(server);
    shares.push(share);
    urls.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  }
  return {
    simulator,
    urls,
    shares,
    async close() {
      await simulator.close();
      for (const server of servers) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
  };
}

/**
 * The load balancer in front of the instances, for the simulator's webhooks only: each POST goes
 * to the next instance, bytes and signature untouched. One POST carries up to 500 statuses, so it
 * forwards a dozen a second at 2,000 sends/s.
 */
export async function startWebhookBalancer(targets: readonly string[]): Promise<{ url: string; close(): Promise<void> }> {
  let next = 0;
  const server = createServer((incoming, outgoing) => {
    const target = new URL(incoming.url ?? '/', targets[next++ % targets.length]);
    const forwarded = httpRequest(target, { method: incoming.method, headers: incoming.headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    forwarded.on('error', () => {
      if (!outgoing.headersSent) outgoing.writeHead(502);
      outgoing.end();
    });
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface ScaleOutDeployment {
  deployment: TestDeployment;
  simulator: PortedSimulator;
  instances: ServerProcess[];
  /** The deployment's schema, for counting rows the instances wrote. */
  db: Knex;
  close(): Promise<void>;
}

/**
 * `count` server processes on one PostgreSQL schema, each sending to its own port of one simulator
 * and pacing its numbers at `messagesPerSecond` (SANDBOX_MESSAGES_PER_SECOND); status webhooks go
 * to them in turn (startWebhookBalancer). The first starts alone (it migrates the schema), the others after it.
 */
export async function startScaleOut(options: { name: string; count: number; messagesPerSecond: number; env?: Record<string, string> }): Promise<ScaleOutDeployment> {
  // Well above what the instances together send at the number's limit: no 130429 retries.
  const simulator = await startPortedSimulator(options.count, options.count * options.messagesPerSecond * 5);
  const deployment = testDeployment({
    name: options.name,
    database: 'postgres',
    env: { SIMULATOR_APP_SECRET: APP_SECRET, SANDBOX_MESSAGES_PER_SECOND: String(options.messagesPerSecond), LOG_LEVEL: 'warn', ...options.env },
  });
  const instances: ServerProcess[] = [];
  let balancer: Awaited<ReturnType<typeof startWebhookBalancer>> | null = null;
  const db = knexFactory({ client: 'pg', connection: process.env.TEST_DATABASE_URL, searchPath: [deployment.schema], pool: { min: 0, max: 2 } });
  const close = async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
    await simulator.close();
    await balancer?.close();
    await db.destroy();
    await deployment.close();
  };
  try {
    for (let i = 0; i < options.count; i++) {
      const port = await freePort();
      const instance = new ServerProcess(`http://127.0.0.1:${port}`, { ...childProcessEnv(), ...deployment.env, PORT: String(port), SIMULATOR_URL: simulator.urls[i] as string });
      instances.push(instance);
      await instance.start();
    }
    balancer = await startWebhookBalancer(instances.map((instance) => instance.url));
  } catch (error) {
    await close();
    throw error;
  }
  simulator.simulator.setWebhook({ url: `${balancer.url}/api/webhooks/whatsapp`, appSecret: APP_SECRET });
  return { deployment, simulator, instances, db, close };
}

/** Rows of a campaign's messages against the provider message ids they carry: each must be one send. */
export async function providerIdCounts(db: Knex, campaignId: number): Promise<{ rows: number; withProviderId: number; distinctProviderIds: number; distinctRecipients: number }> {
  const [row] = (await db('messages')
    .where({ campaign_id: campaignId })
    .select(
      db.raw('count(*)::int as rows'),
      db.raw('count(provider_message_id)::int as "withProviderId"'),
      db.raw('count(distinct provider_message_id)::int as "distinctProviderIds"'),
      db.raw('count(distinct recipient)::int as "distinctRecipients"'),
    )) as { rows: number; withProviderId: number; distinctProviderIds: number; distinctRecipients: number }[];
  return row as { rows: number; withProviderId: number; distinctProviderIds: number; distinctRecipients: number };
}
