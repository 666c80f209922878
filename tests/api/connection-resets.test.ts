/**
 * PostgreSQL connection resets (a failover, a restart, `pg_terminate_backend`): two server
 * processes dispatching one campaign lose every database connection, again and again, mid-campaign.
 * Every background loop (pg-boss workers and their job bookkeeping, status ingestion, sweeps,
 * schedules, outbox, statistics) must catch the lost connection, back off and carry on: both
 * processes stay up and answer /api/health, the campaign finishes, and no recipient is sent twice.
 *
 * The instances' connections are told apart from everyone else's on the shared test database by an
 * application name of their own, carried in DATABASE_URL (knex's pool and pg-boss's pool both take it).
 */
import { randomBytes } from 'node:crypto';
import knexFactory from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plainRecipients, prepareFlowSender, sendFlowCampaign } from '../../server/test/campaignFlow';
import { campaignSettled, waitForCampaign } from '../../server/test/polling';
import { startScaleOut, type ScaleOutDeployment } from '../../server/test/scaleOut';
import { testDatabaseKind } from '../../server/test/server';

const RECIPIENTS = 6_000;
/** How many times every connection of both instances is terminated while the campaign runs. */
const RESETS = 6;
const APPLICATION_NAME = `sandesh_resets_${randomBytes(4).toString('hex')}`;
const skipReason =
  testDatabaseKind() !== 'postgres'
    ? 'PostgreSQL only: connection resets of a PostgreSQL server (SQLite is a file in the process)'
    : process.env.TEST_DATABASE_URL
      ? null
      : 'set TEST_DATABASE_URL to run the connection-reset test';

function withApplicationName(url: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set('application_name', APPLICATION_NAME);
  return parsed.toString();
}

describe('PostgreSQL connection resets during dispatch', () => {
  let scaleOut: ScaleOutDeployment | null = null;

  beforeAll(async () => {
    if (skipReason) return;
    scaleOut = await startScaleOut({
      name: 'resets',
      count: 2,
      messagesPerSecond: 250,
      env: {
        DATABASE_URL: withApplicationName(process.env.TEST_DATABASE_URL ?? ''),
        DISPATCH_BATCH_SIZE: '20',
        // A batch whose results could not be written keeps its claim this long; then its handed
        // sends wait for their statuses, which the simulator keeps posting until they are taken.
        DISPATCH_LEASE_SECONDS: '5',
      },
    });
  }, 120_000);

  afterAll(async () => {
    await scaleOut?.close();
  }, 60_000);

  it('keeps both instances up through repeated terminations of their connections, finishes the campaign and sends no recipient twice', async (context) => {
    if (!scaleOut) {
      context.skip(skipReason ?? 'the deployment did not start');
      return;
    }
    const { simulator, instances } = scaleOut;
    const [first] = instances;
    if (!first) throw new Error('no instance started');
    const sender = await prepareFlowSender(first.url, 10_000);
    const accepted = await sendFlowCampaign(sender, plainRecipients(RECIPIENTS, 9_500_000_000), 'Connection resets');
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    const campaignId = accepted.body.data.campaignId;

    const admin = knexFactory({ client: 'pg', connection: process.env.TEST_DATABASE_URL, pool: { min: 0, max: 1 } });
    let terminated = 0;
    try {
      for (let reset = 0; reset < RESETS; reset++) {
        // Each reset lands while sends are in flight: after another slice of the campaign went out.
        const target = Math.round(((reset + 1) * RECIPIENTS) / (RESETS + 2));
        const deadline = Date.now() + 120_000;
        while (simulator.simulator.receivedCounts().recipients < target) {
          if (Date.now() > deadline) throw new Error(`the campaign stalled before ${target} sends after ${reset} resets`);
          if (!instances.every((instance) => instance.alive)) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        const result = (await admin.raw('select pg_terminate_backend(pid) as done from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and application_name = ?', [
          APPLICATION_NAME,
        ])) as { rows: { done: boolean }[] };
        terminated += result.rows.filter((row) => row.done).length;
      }
    } finally {
      await admin.destroy();
    }
    expect(terminated, 'no connection of the instances was terminated').toBeGreaterThan(0);

    const campaign = await waitForCampaign(sender.client, campaignId, campaignSettled, { timeoutMs: 240_000, intervalMs: 250 }).catch((error: unknown) => {
      throw new Error(`${error instanceof Error ? error.message : String(error)}\n${instances.map((instance) => `${instance.url} alive=${instance.alive}:\n${instance.log}`).join('\n')}`);
    });
    for (const instance of instances) {
      expect(instance.alive, `instance ${instance.url} died:\n${instance.log}`).toBe(true);
      expect((await fetch(`${instance.url}/api/health`)).status).toBe(200);
    }
    const { counts } = campaign;
    expect(counts.sent + counts.delivered + counts.read, JSON.stringify(counts)).toBe(RECIPIENTS);
    const received = simulator.simulator.receivedCounts();
    expect(received.repeated).toEqual([]);
    expect(received.recipients).toBe(RECIPIENTS);
    expect(received.sends).toBe(RECIPIENTS);
    console.log(`connection-resets: ${terminated} connections terminated over ${RESETS} resets; ${RECIPIENTS.toLocaleString('en-IN')} recipients each sent once`);
  }, 420_000);
});
