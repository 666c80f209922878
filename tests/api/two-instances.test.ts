/**
 * Scale-out (issue 5): two server instances on one PostgreSQL database share a campaign through
 * pg-boss, and no recipient is sent twice. Both send to one external simulator, which counts what
 * each recipient received; its status webhooks go to instance A.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knexFactory from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TCampaignAccepted } from '@shared/schemas/sending';
import { loadConfig } from '../../server/src/config';
import type { ClaimedMessage } from '../../server/src/sending/dispatcher';
import { startServer, type RunningServer } from '../../server/src/server';
import type { SimulatorServer } from '../../server/src/simulator/cloudApiSimulator';
import { startBusyLoops } from '../../server/test/busyLoops';
import { campaignSettled, plainRecipients, prepareFlowSender, startFlowSimulator, waitForCampaign } from '../../server/test/campaignFlow';
import { TEST_ADMIN, testDatabaseKind } from '../../server/test/server';

const RECIPIENTS = 5_000;
const APP_SECRET = 'two-instances-app-secret';
const databaseUrl = process.env.TEST_DATABASE_URL;
const runs = testDatabaseKind() === 'postgres' && Boolean(databaseUrl);

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
  const schema = `t_two_${randomBytes(5).toString('hex')}`;
  let dataDir = '';
  let simulator: SimulatorServer;
  let a: RunningServer;
  let b: RunningServer;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandesh-two-'));
    // Well above what both instances together send at the number's limit: no 130429 retries.
    simulator = await startFlowSimulator({ messagesPerSecond: 10_000 });
    // Instances behind one load balancer share the database, the files and the secrets key.
    const config = loadConfig({
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: dataDir,
      WEB_DIST_DIR: path.join(dataDir, 'no-web'),
      ADMIN_USERNAME: TEST_ADMIN.username,
      ADMIN_PASSWORD: TEST_ADMIN.password,
      DATABASE_URL: databaseUrl,
      DATABASE_SCHEMA: schema,
      DATABASE_POOL_MAX: '5',
      SECRETS_KEY: randomBytes(32).toString('hex'),
      SIMULATOR_URL: simulator.url,
      SIMULATOR_APP_SECRET: APP_SECRET,
      SANDBOX_MESSAGES_PER_SECOND: '1000',
    });
    // One after the other: the first migrates the schema, the second finds it ready.
    a = await startServer(config);
    b = await startServer(config);
    simulator.simulator.setWebhook({ url: `${a.url}/api/webhooks/whatsapp`, appSecret: APP_SECRET });
  }, 60_000);

  afterAll(async () => {
    await b?.close();
    await a?.close();
    await simulator?.close();
    const admin = knexFactory({ client: 'pg', connection: databaseUrl });
    await admin.raw('drop schema if exists ?? cascade', [schema]);
    await admin.raw('drop schema if exists ?? cascade', [`${schema}_pgboss`]);
    await admin.destroy();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('shares a 5,000-recipient campaign accepted by one instance, and no recipient is sent twice, on a busy machine', async () => {
    // Busy loops beside the test: stalled event loops and late timers are where double sends hid.
    const loops = startBusyLoops();
    try {
      await shareCampaign(loops.count);
    } finally {
      await loops.stop();
    }
  }, 150_000);

  async function shareCampaign(busyLoops: number): Promise<void> {
    const dispatchedByA = countDispatches(a);
    const dispatchedByB = countDispatches(b);
    const sender = await prepareFlowSender(a.url, 10_000);
    const started = performance.now();
    const accepted = await sender.client.post<{ data: TCampaignAccepted }>('/api/whatsapp/bulk-quick-send', {
      phone_number_id: sender.phoneNumberId,
      template_name: sender.templateName,
      language: 'en_US',
      recipients_text: plainRecipients(RECIPIENTS, 9_300_000_000).join('\n'),
      variables: { '1': 'Friend' },
      campaign_name: 'Two instances',
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body.data).toMatchObject({ accepted: RECIPIENTS, duplicates: 0, invalid: 0 });

    const campaign = await waitForCampaign(sender.client, accepted.body.data.campaignId, campaignSettled, 120_000);
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
