/**
 * Crash test (issue 5): a 20,000-recipient campaign, the server killed with SIGKILL in the middle
 * of dispatch and started again. Afterwards every message is terminal, the provider (an external
 * simulator that outlives the server) received every recipient, and only within the documented
 * crash window more than once, and the wallet holds exactly one debit for the campaign.
 *
 * The server runs as a real child process (node with tsx's loader, server/src/main.ts), on the
 * database the suite runs on, and is driven over HTTP only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import knexFactory from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TCampaignAccepted } from '@shared/schemas/sending';
import type { TCreditHistoryResponse, TMeResponse } from '@shared/types';
import type { SimulatorServer } from '../../server/src/simulator/cloudApiSimulator';
import { campaignSettled, freePort, plainRecipients, prepareFlowSender, startFlowSimulator, waitForCampaign } from '../../server/test/campaignFlow';
import { postgresUnavailable, TEST_ADMIN, testDatabaseKind } from '../../server/test/server';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const RECIPIENTS = 20_000;
const KILL_AFTER_RECIPIENTS = 4_000;
const BATCH_SIZE = 50;
/** EmbeddedDispatchQueue's lanes and PgBossDispatchQueue's workers (DISPATCH_WORKERS). */
const CLAIMERS = 8;
/** The documented crash window: every claimed batch in flight when the process died. */
const CRASH_WINDOW = BATCH_SIZE * CLAIMERS;
const SEND_RATE = 2_000;
const APP_SECRET = 'crash-test-app-secret';

/** The server as a child process that can be killed and started again on the same port and data. */
class ServerProcess {
  private child: ChildProcess | null = null;
  private exited: Promise<void> = Promise.resolve();
  private output = '';

  constructor(
    readonly url: string,
    private readonly env: Record<string, string>,
  ) {}

  /** Starts the process and answers once GET /api/health does (milliseconds taken). */
  async start(): Promise<number> {
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], { cwd: ROOT, env: this.env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    let exitCode: number | string | null = null;
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        exitCode = code ?? signal;
        resolve();
      });
    });
    const keep = (chunk: Buffer) => {
      // The last few kilobytes are enough to say why a start failed.
      this.output = (this.output + chunk.toString()).slice(-8_000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    for (;;) {
      if (exitCode !== null) throw new Error(`server exited (${exitCode}) while starting:\n${this.output}`);
      try {
        const response = await fetch(`${this.url}/api/health`);
        if (response.status === 200) return performance.now() - started;
      } catch {
        // Not listening yet.
      }
      if (performance.now() - started > 45_000) throw new Error(`server did not start in 45 s:\n${this.output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async kill(signal: NodeJS.Signals): Promise<void> {
    if (!this.child || this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill(signal);
    await this.exited;
  }

  /** A graceful stop, forced after a while: cleanup must not hang the suite. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const forced = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await this.kill('SIGTERM');
    clearTimeout(forced);
  }

  get log(): string {
    return this.output;
  }
}

async function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const started = performance.now();
  while (!condition()) {
    if (performance.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const rupees = (value: number) => Math.round(value * 100) / 100;

describe.skipIf(postgresUnavailable)('crash recovery: kill -9 in the middle of a 20,000-recipient campaign', () => {
  const kind = testDatabaseKind();
  const schema = `t_crash_${randomBytes(5).toString('hex')}`;
  let dataDir = '';
  let simulator: SimulatorServer;
  let server: ServerProcess;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandesh-crash-'));
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    // The simulator allows more than the sandbox number's limit, so the server's own pacing is what holds the rate.
    simulator = await startFlowSimulator({ messagesPerSecond: SEND_RATE * 2, webhook: { url: `${url}/api/webhooks/whatsapp`, appSecret: APP_SECRET } });
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? os.homedir(),
      TMPDIR: os.tmpdir(),
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      WEB_DIST_DIR: path.join(dataDir, 'no-web'),
      ADMIN_USERNAME: TEST_ADMIN.username,
      ADMIN_PASSWORD: TEST_ADMIN.password,
      SIMULATOR_URL: simulator.url,
      SIMULATOR_APP_SECRET: APP_SECRET,
      SANDBOX_MESSAGES_PER_SECOND: String(SEND_RATE),
      DISPATCH_BATCH_SIZE: String(BATCH_SIZE),
      DISPATCH_WORKERS: String(CLAIMERS),
      // Shorter than the restarted instance's sweeps for lapsed claims (one at start, then every
      // 15 s), so PostgreSQL recovers at the next sweep; long enough that a slow batch on a busy
      // machine never loses its claim while its process lives.
      DISPATCH_LEASE_SECONDS: '10',
      ...(kind === 'postgres' ? { DATABASE_URL: process.env.TEST_DATABASE_URL ?? '', DATABASE_SCHEMA: schema, DATABASE_POOL_MAX: '10' } : {}),
    };
    server = new ServerProcess(url, env);
    await server.start();
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    await simulator?.close();
    if (kind === 'postgres') {
      const admin = knexFactory({ client: 'pg', connection: process.env.TEST_DATABASE_URL });
      await admin.raw('drop schema if exists ?? cascade', [schema]);
      await admin.raw('drop schema if exists ?? cascade', [`${schema}_pgboss`]);
      await admin.destroy();
    }
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);

  it('ends with every message terminal, each recipient sent once but for the crash window, and the ledger exact', async () => {
    const sender = await prepareFlowSender(server.url, 20_000);
    const recipients = plainRecipients(RECIPIENTS);
    const accepted = await sender.client.post<{ data: TCampaignAccepted }>('/api/whatsapp/bulk-quick-send', {
      phone_number_id: sender.phoneNumberId,
      template_name: sender.templateName,
      language: 'en_US',
      recipients_text: recipients.join('\n'),
      variables: { '1': 'Friend' },
      campaign_name: 'Crash test',
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body.data).toMatchObject({ accepted: RECIPIENTS, duplicates: 0, invalid: 0, suppressed: 0 });
    const campaignId = accepted.body.data.campaignId;

    const received = () => simulator.simulator.receivedCounts();
    const acceptedAt = performance.now();
    await until(() => received().recipients >= KILL_AFTER_RECIPIENTS, 60_000, `${KILL_AFTER_RECIPIENTS} sends before the kill`);
    await server.kill('SIGKILL');
    const atKill = received();
    const beforeKillMs = performance.now() - acceptedAt;
    expect(atKill.recipients, 'the kill came after the whole campaign was sent').toBeLessThan(RECIPIENTS);

    const restartedAt = performance.now();
    const readyMs = await server.start();
    const campaign = await waitForCampaign(sender.client, campaignId, campaignSettled, 90_000).catch((error: unknown) => {
      throw new Error(`${error instanceof Error ? error.message : String(error)}\nserver output:\n${server.log}`);
    });
    const recoveryMs = performance.now() - restartedAt;

    const { counts } = campaign;
    expect(counts.sent + counts.delivered + counts.read + counts.failed, JSON.stringify(counts)).toBe(RECIPIENTS);
    expect(counts.failed).toBe(0);

    const after = received();
    expect(after.recipients).toBe(RECIPIENTS);
    expect(after.repeated.length, JSON.stringify(after.repeated.slice(0, 5))).toBeLessThanOrEqual(CRASH_WINDOW);
    expect(after.sends - after.recipients).toBeLessThanOrEqual(CRASH_WINDOW);

    const price = campaign.pricePerMessage;
    expect(price).toBeGreaterThan(0);
    const debit = rupees(price * RECIPIENTS);
    const history = await sender.client.get<TCreditHistoryResponse>('/api/credits/history?limit=200');
    expect(history.status).toBe(200);
    const debits = history.body.history.filter((entry) => entry.type === 'CAMPAIGN_DEBIT');
    expect(debits.map((entry) => entry.amount)).toEqual([-debit]);
    expect(history.body.history.filter((entry) => entry.type.includes('REFUND'))).toEqual([]);
    expect(campaign.refunded).toBe(0);
    const me = await sender.client.get<TMeResponse>('/api/auth/me');
    expect(me.body.user.creditBalance).toBe(rupees(sender.openingBalance - debit));

    console.log(
      `crash-recovery [${kind}]: ${atKill.recipients.toLocaleString('en-IN')} of ${RECIPIENTS.toLocaleString('en-IN')} recipients sent in ${(beforeKillMs / 1000).toFixed(1)} s before kill -9; ` +
        `${after.repeated.length} received twice (window ${CRASH_WINDOW}); restart ready in ${(readyMs / 1000).toFixed(1)} s, ` +
        `campaign completed ${(recoveryMs / 1000).toFixed(1)} s after the restart began`,
    );
  }, 150_000);
});
