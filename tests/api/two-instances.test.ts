/**
 * Scale-out: two server instances on one PostgreSQL database share a campaign through
 * pg-boss, and no recipient is sent twice. Both send to one external simulator, which counts what
 * each recipient received; its status webhooks go to instance A.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/src/config';
import type { ClaimedMessage } from '../../server/src/sending/claims';
import { startServer, type RunningServer } from '../../server/src/server';
import type { SimulatorServer } from '../../server/src/simulator/cloudApiSimulator';
import { startBusyLoops } from '../../server/test/busyLoops';
import { plainRecipients, prepareFlowSender, sendFlowCampaign, startFlowSimulator } from '../../server/test/campaignFlow';
import { testDeployment, type TestDeployment } from '../../server/test/deployment';
import { campaignSettled, waitForCampaign } from '../../server/test/polling';
import { apiKeyFor, postApiSend } from '../../server/test/sending';
import { testDatabaseKind } from '../../server/test/server';

const RECIPIENTS = 5_000;
const APP_SECRET = 'two-instances-app-secret';
const runs = testDatabaseKind() === 'postgres' && Boolean(process.env.TEST_DATABASE_URL);

/** Counts the batches and messages one instance's dispatcher sent (the messages table has no instance column). */
function countDispatches(server: RunningServer): { batches: number; messages: number } {
  const counter = { batches: 0, messages: 0 };
  const dispatcher = server.services.engine.dispatcher;
  const dispatch = dispatcher.dispatch.bind(dispatcher);
  dispatcher.dispatch = (claimed: readonly ClaimedMessage[]) => {
    counter.batches += 1;
    counter.messages += claimed.length;
    return dispatch(claimed);
  };
  return counter;
}

describe.skipIf(!runs)('two server instances on one PostgreSQL', () => {
  let deployment: TestDeployment;
  let simulator: SimulatorServer;
  let a: RunningServer;
  let b: RunningServer;

  beforeAll(async () => {
    // Well above what both instances together send at the number's limit: no 130429 retries.
    simulator = await startFlowSimulator({ messagesPerSecond: 10_000 });
    // Instances behind one load balancer share the database, the files and the secrets key.
    deployment = testDeployment({
      name: 'two',
      database: 'postgres',
      // A send the loaded machine keeps past the 15 s default becomes unknown and waits the production
      // ten-minute settle before it is tried again (seen beside the whole suite, 2026-11-25): sending
      // twice is what this test is about, not the send timeout.
      env: { SIMULATOR_URL: simulator.url, SIMULATOR_APP_SECRET: APP_SECRET, SANDBOX_MESSAGES_PER_SECOND: '1000', DISPATCH_SEND_TIMEOUT_SECONDS: '60' },
    });
    const config = loadConfig({ ...deployment.env, PORT: '0' });
    // One after the other: the first migrates the schema, the second finds it ready.
    a = await startServer(config);
    b = await startServer(config);
    simulator.simulator.setWebhook({ url: `${a.url}/api/webhooks/whatsapp`, appSecret: APP_SECRET });
  }, 60_000);

  afterAll(async () => {
    await b?.close();
    await a?.close();
    await simulator?.close();
    await deployment?.close();
  }, 60_000);

  it('shares a 5,000-recipient campaign accepted by one instance, and no recipient is sent twice, on a busy machine', async () => {
    // Busy loops beside the test: stalled event loops and late timers are where double sends hid.
    const loops = startBusyLoops();
    try {
      await shareCampaign(loops.count);
    } finally {
      await loops.stop();
    }
  }, 360_000);

  it('queues a message sent to both instances at once once, and answers the other Duplicate Blocked without charging it', async () => {
    const sender = await prepareFlowSender(a.url, 1_000);
    const key = await apiKeyFor(sender.client);
    const body = (i: number) => ({ username: sender.username, templatename: sender.templateName, recipient_number: `91940000${String(1000 + i)}`, var1: `Asha ${i}` });
    // Each message goes to both instances at the same moment: their group commits run side by side.
    const pairs = await Promise.all(
      Array.from({ length: 20 }, (_, i) => Promise.all([postApiSend<{ status: string; charged: boolean }>(a.url, key, body(i)), postApiSend<{ status: string; charged: boolean }>(b.url, key, body(i))])),
    );
    for (const pair of pairs) {
      expect(pair.map((answer) => answer.status)).toEqual([200, 200]);
      expect(pair.map((answer) => answer.body.status).sort()).toEqual(['duplicate', 'queued']);
      expect(pair.map((answer) => answer.body.charged).sort()).toEqual([false, true]);
    }
    const kept = (await a.db('messages').where({ userId: sender.userId }).whereNot('status', 'duplicate').select('recipient', 'priceUnits')) as { recipient: string; priceUnits: number | string }[];
    expect(new Set(kept.map((row) => row.recipient)).size).toBe(20);
    expect(kept).toHaveLength(20);
    const balance = (await a.db('users').where({ id: sender.userId }).first('creditBalance')) as { creditBalance: number | string };
    expect(Math.round(sender.openingBalance * 10_000) - Number(balance.creditBalance)).toBe(kept.reduce((sum, row) => sum + Number(row.priceUnits), 0));
  }, 120_000);

  async function shareCampaign(busyLoops: number): Promise<void> {
    const dispatchedByA = countDispatches(a);
    const dispatchedByB = countDispatches(b);
    const sender = await prepareFlowSender(a.url, 10_000);
    const started = performance.now();
    const accepted = await sendFlowCampaign(sender, plainRecipients(RECIPIENTS, 9_300_000_000), 'Two instances');
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body.data).toMatchObject({ accepted: RECIPIENTS, duplicates: 0, invalid: 0 });

    const campaign = await waitForCampaign(sender.client, accepted.body.data.campaignId, campaignSettled, { timeoutMs: 300_000, intervalMs: 250 });
    const seconds = (performance.now() - started) / 1000;
    const { counts } = campaign;
    expect(counts.sent + counts.delivered + counts.read + counts.failed, JSON.stringify(counts)).toBe(RECIPIENTS);
    expect(counts.failed).toBe(0);

    const received = simulator.simulator.receivedCounts();
    expect(received.repeated).toEqual([]);
    expect(received.recipients).toBe(RECIPIENTS);
    expect(received.sends).toBe(RECIPIENTS);

    expect(dispatchedByA.batches, 'instance A dispatched nothing').toBeGreaterThan(0);
    expect(dispatchedByB.batches, 'instance B dispatched nothing').toBeGreaterThan(0);
    // A batch a worker claimed can be held and claimed again (by either instance): at least once each.
    expect(dispatchedByA.messages + dispatchedByB.messages).toBeGreaterThanOrEqual(RECIPIENTS);

    console.log(
      `two-instances: ${RECIPIENTS.toLocaleString('en-IN')} recipients in ${seconds.toFixed(1)} s; ` +
        `instance A sent ${dispatchedByA.messages.toLocaleString('en-IN')} in ${dispatchedByA.batches} batches, ` +
        `instance B ${dispatchedByB.messages.toLocaleString('en-IN')} in ${dispatchedByB.batches}; none received twice (${busyLoops} busy loops beside)`,
    );
  }
});
