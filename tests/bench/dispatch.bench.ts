import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { freePort } from '../../server/test/campaignFlow';
import { buildUser } from '../../server/test/factories';
import { startTestServer } from '../../server/test/server';
import { CloudApiProvider } from '../../server/src/sending/providers/cloudApi';
import { templateSendRequest } from '../../server/src/sending/messageRequest';
import { runWithConcurrency } from '../../server/src/sending/dispatcher';
import { SIMULATOR_ACCESS_TOKEN } from '../../server/src/sending/providerRegistry';
import type { Template } from '../../server/src/models';
import type { TestServer } from '../../server/test/server';
import { figureDb, printFigure } from './figures';
import { approvedBenchTemplate, withPeakRss } from './support';

const LIMIT = 1000;
const MESSAGES = 20_000;
/** Sends of the ceiling run: enough for some seconds at the simulator's speed. */
const CEILING_SENDS = 20_000;
/** Per sender number on the ceiling's simulator: high enough that its limit is not what is measured. */
const UNLIMITED_MPS = 1_000_000;

/** The simulator in its own process, as a real provider would be. */
export async function startSimulatorProcess(port: number, webhookUrl: string, database: Record<string, string>, messagesPerSecond = LIMIT): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/simulator/standalone.ts'], {
    env: { ...process.env, ...database, SIMULATOR_PORT: String(port), SIMULATOR_MPS: String(messagesPerSecond), SIMULATOR_WEBHOOK_URL: webhookUrl, SIMULATOR_SENT_MS: '20', SIMULATOR_DELIVERED_MS: '100', SIMULATOR_READ_MS: '300', LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('simulator listening')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`simulator exited with ${code}`)));
  });
  return child;
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

/** Answers every webhook POST with 200 and forgets it: the ceiling run has no server behind it. */
async function startWebhookSink(): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    request.resume();
    request.once('end', () => response.end('ok'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`, server };
}

/**
 * The simulator's own ceiling: the same simulator program (its own process, same database for its
 * template lookups, webhooks still posted, to a sink) with its per-number limit out of the way,
 * driven by a no-op client: the provider adapter the dispatcher uses, with as many sends in
 * flight as one instance allows (workers x concurrency), and no database, claims or pacing.
 */
export async function simulatorCeiling(server: TestServer, database: Record<string, string>, template: Template, phoneNumberId: string): Promise<number> {
  const sink = await startWebhookSink();
  const port = await freePort();
  const simulator = await startSimulatorProcess(port, sink.url, database, UNLIMITED_MPS);
  const provider = new CloudApiProvider({ baseUrl: `http://127.0.0.1:${port}`, apiVersion: server.config.providers.whatsappApiVersion, accessToken: SIMULATOR_ACCESS_TOKEN });
  try {
    const inFlight = server.config.sending.dispatch.workers * server.config.sending.dispatch.concurrency;
    const send = (i: number) =>
      provider.sendTemplate(templateSendRequest({ phoneNumberId, to: `91${6_500_000_000 + i * 10 + 5}`, template, values: { '1': 'Ravi', '2': String(i) }, headerMedia: null, callbackData: `ceiling-${i}` }));
    // Connections opened and the simulator's code warmed before the clock starts.
    await runWithConcurrency(Array.from({ length: 500 }, (_, i) => async () => void (await send(CEILING_SENDS + i))), inFlight);
    let ok = 0;
    const started = performance.now();
    await runWithConcurrency(
      Array.from({ length: CEILING_SENDS }, (_, i) => async () => {
        if ((await send(i)).ok) ok += 1;
      }),
      inFlight,
    );
    const seconds = (performance.now() - started) / 1000;
    // Only what the simulator took counts; a refusal or time-out on a loaded machine is said, not hidden.
    if (ok !== CEILING_SENDS) console.log(`  (the simulator did not take ${CEILING_SENDS - ok} of the ${CEILING_SENDS} no-op sends)`);
    return ok / seconds;
  } finally {
    await provider.close();
    await stopProcess(simulator);
    await new Promise<void>((resolve) => sink.server.close(() => resolve()));
  }
}

/**
 * End to end: a campaign dispatched to the simulator (its own process) with its limit at 1,000
 * messages/s, counted until every message has been sent and its status webhooks applied.
 */
export const dispatchBench = {
  name: 'dispatch and webhooks',
  async run(): Promise<void> {
    const simulatorPort = await freePort();
    // The pool of a production instance (DATABASE_POOL_MAX default), not the tests' smaller one.
    const server = await startTestServer({ SANDBOX_MESSAGES_PER_SECOND: String(LIMIT), SIMULATOR_URL: `http://127.0.0.1:${simulatorPort}`, DATABASE_POOL_MAX: '10' });
    const database: Record<string, string> =
      server.config.database.kind === 'sqlite'
        ? { DATA_DIR: server.dataDir }
        : { DATABASE_URL: server.config.database.url, ...(server.config.database.schema ? { DATABASE_SCHEMA: server.config.database.schema } : {}) };
    const simulator = await startSimulatorProcess(simulatorPort, `${server.url}/api/webhooks/whatsapp`, database);
    try {
      const user = await buildUser(server, { creditRupees: 1_000_000 });
      const template = await approvedBenchTemplate(server, user, 'bench_dispatch');
      const sender = await server.services.senderNumbers.ensureSandbox(user.id);
      const ceiling = await simulatorCeiling(server, database, template, sender.phoneNumberId);
      console.log(`  the simulator's own ceiling (no-op client, ${CEILING_SENDS.toLocaleString('en-IN')} sends, no per-number limit): ${Math.round(ceiling)}/s; configured per-number limit ${LIMIT}/s`);
      const recipients = Array.from({ length: MESSAGES }, (_, i) => ({ to: `91${7_000_000_000 + i}`, variables: { '1': 'Ravi', '2': String(i) } }));
      const { result, peakMb } = await withPeakRss(async () => {
        const started = performance.now();
        const campaign = await server.services.campaignAcceptance.accept({ user, template, senderNumberId: sender.id, name: 'bench dispatch', source: 'bulk', recipients, invalidCount: 0, inSendDuplicates: 0 });
        server.services.engine.notifyAccepted();
        let sentAt = 0;
        // One index probe per look: counting the campaign's 20,000 rows by status every 100 ms took
        // 17 ms of PostgreSQL's time each, beside the dispatch this measures.
        const anyWith = async (statuses: string[]) => (await server.db('messages').where({ campaignId: campaign.campaignId }).whereIn('status', statuses).first('id')) !== undefined;
        for (;;) {
          if (!sentAt && !(await anyWith(['queued', 'sending']))) sentAt = performance.now();
          if (sentAt && !(await anyWith(['sent']))) break;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        const span = (await server.db('messages').where({ campaignId: campaign.campaignId }).min({ first: 'sentAt' }).max({ last: 'sentAt' })) as { first: string | Date; last: string | Date }[];
        const steadySeconds = (new Date(span[0]!.last).getTime() - new Date(span[0]!.first).getTime()) / 1000;
        const retried = (await server.db('messages').where({ campaignId: campaign.campaignId }).where('attempts', '>', 1).count({ n: '*' })) as { n: number | string }[];
        return { sendSeconds: (sentAt - started) / 1000, totalSeconds: (performance.now() - started) / 1000, retried: Number(retried[0]?.n ?? 0), steadySeconds };
      });
      console.log(`  dispatch ${MESSAGES.toLocaleString('en-IN')} to the simulator (limit ${LIMIT}/s): sent in ${result.sendSeconds.toFixed(2)} s = ${Math.round(MESSAGES / result.sendSeconds)}/s (${((MESSAGES / result.sendSeconds / LIMIT) * 100).toFixed(1)}% of the limit; first to last send ${Math.round(MESSAGES / result.steadySeconds)}/s = ${((MESSAGES / result.steadySeconds / LIMIT) * 100).toFixed(1)}%; ${result.retried} retried after 130429)`);
      console.log(`  ...with every status webhook applied: ${result.totalSeconds.toFixed(2)} s = ${Math.round(MESSAGES / result.totalSeconds)}/s, peak RSS ${peakMb} MB`);
      // First to last send: the dispatch rate itself, without the acceptance before it.
      printFigure({ db: figureDb(server.config.database.kind), figure: 'dispatch_per_second', value: Math.round(MESSAGES / result.steadySeconds), ceiling: Math.round(Math.min(LIMIT, ceiling)), unit: 'messages/s' });
    } finally {
      await stopProcess(simulator);
      await server.close();
    }
  },
};
