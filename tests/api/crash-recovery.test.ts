/**
 * Crash test: a 20,000-recipient campaign, the server killed with SIGKILL in the middle
 * of dispatch and started again once the provider's status webhooks have failed for a while. The
 * provider (an external simulator that outlives the server) retries them as Meta does, so the
 * sends the crash left unanswered are settled by their statuses, not sent again: afterwards every
 * recipient was sent exactly once, every message carries its final status (`read`), and the
 * wallet holds exactly one debit for the campaign.
 *
 * The server runs as a real child process (node with tsx's loader, server/src/main.ts), on the
 * database the suite runs on, and is driven over HTTP only.
 */
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TCampaign } from '@shared/schemas/sending';
import type { TCreditHistoryResponse, TMeResponse } from '@shared/types';
import type { SimulatorServer } from '../../server/src/simulator/cloudApiSimulator';
import { freePort, plainRecipients, prepareFlowSender, sendFlowCampaign, startFlowSimulator } from '../../server/test/campaignFlow';
import { childProcessEnv, testDeployment, type TestDeployment } from '../../server/test/deployment';
import { campaignSettled, waitForCampaign } from '../../server/test/polling';
import { startBusyLoops } from '../../server/test/busyLoops';
import { postgresUnavailable, testDatabaseKind } from '../../server/test/server';
import { ServerProcess, until } from '../../server/test/serverProcess';
const RECIPIENTS = 20_000;
const KILL_AFTER_RECIPIENTS = 4_000;
const BATCH_SIZE = 50;
/** EmbeddedDispatchQueue's lanes and PgBossDispatchQueue's workers (DISPATCH_WORKERS). */
const CLAIMERS = 8;
/**
 * The documented crash window: sends handed to the provider whose answers were not stored when the
 * process died, at most one batch per worker. The test also counts the ones actually open.
 */
const CRASH_WINDOW = CLAIMERS * BATCH_SIZE;
/** Sends the crash left without an answer wait this long for a status before going out again. */
const SETTLE_SECONDS = 30;
const SEND_RATE = 2_000;
/** The server stays down until this many status webhook posts failed (about 16 s of retries). */
const WEBHOOK_FAILURES_BEFORE_RESTART = 20;
const APP_SECRET = 'crash-test-app-secret';

const rupees = (value: number) => Math.round(value * 100) / 100;

describe.skipIf(postgresUnavailable)('crash recovery: kill -9 in the middle of a 20,000-recipient campaign', () => {
  const kind = testDatabaseKind();
  let deployment: TestDeployment;
  let simulator: SimulatorServer;
  let server: ServerProcess;

  beforeAll(async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    // The simulator allows more than the sandbox number's limit, so the server's own pacing is what holds the rate.
    // Like Meta, the provider keeps retrying status webhooks while the server is down: the statuses
    // of sends the crash left unanswered then settle them by reference.
    simulator = await startFlowSimulator({ messagesPerSecond: SEND_RATE * 2, webhook: { url: `${url}/api/webhooks/whatsapp`, appSecret: APP_SECRET } });
    deployment = testDeployment({
      name: 'crash',
      database: kind,
      poolMax: 10,
      env: {
        ...childProcessEnv(),
        LOG_LEVEL: 'warn',
        PORT: String(port),
        SIMULATOR_URL: simulator.url,
        SIMULATOR_APP_SECRET: APP_SECRET,
        SANDBOX_MESSAGES_PER_SECOND: String(SEND_RATE),
        DISPATCH_BATCH_SIZE: String(BATCH_SIZE),
        DISPATCH_WORKERS: String(CLAIMERS),
        // Shorter than the restarted instance's sweeps for lapsed claims (one at start, then every
        // 15 s), so PostgreSQL recovers at the next sweep; long enough that a slow batch on a busy
        // machine never loses its claim while its process lives.
        DISPATCH_LEASE_SECONDS: '10',
        DISPATCH_UNKNOWN_SETTLE_SECONDS: String(SETTLE_SECONDS),
      },
    });
    server = new ServerProcess(url, deployment.env);
    await server.start();
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    await simulator?.close();
    await deployment?.close();
  }, 30_000);

  /** The sends handed to the provider and not answered, read straight from the database after the kill. */
  async function openHandoffs(): Promise<number> {
    const db: Knex =
      kind === 'postgres'
        ? knexFactory({ client: 'pg', connection: process.env.TEST_DATABASE_URL, searchPath: [deployment.schema] })
        : knexFactory({ client: 'better-sqlite3', connection: { filename: path.join(deployment.dataDir, 'sandesh.sqlite') }, useNullAsDefault: true });
    try {
      const row = (await db('messages').where({ status: 'sending' }).whereNotNull('handed_at').count({ n: '*' }).first()) as { n: number | string } | undefined;
      return Number(row?.n ?? 0);
    } finally {
      await db.destroy();
    }
  }

  it('ends with every recipient sent exactly once, every message at its final status and the ledger exact (on a busy machine)', async () => {
    const loops = startBusyLoops();
    try {
      await crashAndRecover();
    } finally {
      await loops.stop();
    }
  }, 480_000);

  async function crashAndRecover(): Promise<void> {
    const sender = await prepareFlowSender(server.url, 20_000);
    const recipients = plainRecipients(RECIPIENTS);
    const accepted = await sendFlowCampaign(sender, recipients, 'Crash test');
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body.data).toMatchObject({ accepted: RECIPIENTS, duplicates: 0, invalid: 0, suppressed: 0 });
    const campaignId = accepted.body.data.campaignId;

    const received = () => simulator.simulator.receivedCounts();
    const acceptedAt = performance.now();
    await until(() => received().recipients >= KILL_AFTER_RECIPIENTS, 180_000, `${KILL_AFTER_RECIPIENTS} sends before the kill`);
    await server.kill('SIGKILL');
    const atKill = received();
    const openAtKill = await openHandoffs();
    const beforeKillMs = performance.now() - acceptedAt;
    expect(atKill.recipients, 'the kill came after the whole campaign was sent').toBeLessThan(RECIPIENTS);
    // Down long enough that the provider's retries of the statuses posted meanwhile are spaced out
    // at their longest (a second here; Meta's grow to hours).
    await until(() => simulator.simulator.webhookCounts().failedPosts >= WEBHOOK_FAILURES_BEFORE_RESTART, 120_000, 'webhook posts failing while the server is down');
    const downMs = performance.now() - acceptedAt - beforeKillMs;

    const restartedAt = performance.now();
    const readyMs = await server.start();
    // A deadline for a recovery that never comes, not a speed check (the time is printed). Beside
    // the suite's other lane and three more busy loops, SQLite took longer than 90 s (2026-11-28).
    // Settled, and every status the provider reported applied: plain recipients end at `read`.
    const finished = (value: TCampaign) => campaignSettled(value) && value.counts.read === RECIPIENTS;
    const campaign = await waitForCampaign(sender.client, campaignId, finished, { timeoutMs: 300_000, intervalMs: 250 }).catch((error: unknown) => {
      throw new Error(`${error instanceof Error ? error.message : String(error)}\nserver output:\n${server.log}`);
    });
    const recoveryMs = performance.now() - restartedAt;

    const { counts } = campaign;
    expect(counts.read, JSON.stringify(counts)).toBe(RECIPIENTS);
    expect(counts.failed).toBe(0);

    const after = received();
    expect(after.recipients).toBe(RECIPIENTS);
    // The sends open at the kill were answered by their statuses, retried until the server was back.
    expect(openAtKill).toBeLessThanOrEqual(CRASH_WINDOW);
    expect(after.repeated, JSON.stringify(after.repeated.slice(0, 5))).toEqual([]);
    expect(after.sends).toBe(RECIPIENTS);
    expect(simulator.simulator.webhookCounts().droppedStatuses).toBe(0);

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
        `down ${(downMs / 1000).toFixed(1)} s (${simulator.simulator.webhookCounts().failedPosts} webhook posts failed); ` +
        `${after.repeated.length} received twice, ${openAtKill} sends open at the kill (window at most ${CRASH_WINDOW}); restart ready in ${(readyMs / 1000).toFixed(1)} s, ` +
        `campaign completed ${(recoveryMs / 1000).toFixed(1)} s after the restart began`,
    );
  }
});
