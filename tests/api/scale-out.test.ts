/**
 * Scale-out across processes: two server instances, each its own Node process, on one
 * PostgreSQL schema. One campaign accepted by instance A is sent by both (pg-boss hands batches to
 * whichever instance asks), every recipient exactly once, and the campaign completes. Each
 * instance sends to its own port of one simulator, which is how its share is counted.
 * The bench (tests/bench/scaleOut.bench.ts) does the same with 200,000 recipients and prints the rate.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plainRecipients, prepareFlowSender, sendFlowCampaign } from '../../server/test/campaignFlow';
import { campaignSettled, waitForCampaign } from '../../server/test/polling';
import { providerIdCounts, startScaleOut, type ScaleOutDeployment } from '../../server/test/scaleOut';
import { testDatabaseKind } from '../../server/test/server';

const RECIPIENTS = 2_000;
const skipReason =
  testDatabaseKind() !== 'postgres'
    ? 'PostgreSQL only: instances share a campaign through pg-boss on one PostgreSQL; a SQLite deployment is one instance'
    : process.env.TEST_DATABASE_URL
      ? null
      : 'set TEST_DATABASE_URL to run the scale-out test';

describe('scale-out: two server processes on one PostgreSQL', () => {
  let scaleOut: ScaleOutDeployment | null = null;

  beforeAll(async () => {
    if (skipReason) return;
    // Small batches, so that a 2,000-recipient campaign makes enough jobs for both instances. It is
    // staged as a million-recipient one is: its message rows and jobs come from a
    // materialiser, whichever instance's takes the campaign.
    scaleOut = await startScaleOut({ name: 'scale', count: 2, messagesPerSecond: 1000, env: { DISPATCH_BATCH_SIZE: '20', STAGED_ACCEPTANCE_MIN_RECIPIENTS: '1000' } });
  }, 120_000);

  afterAll(async () => {
    await scaleOut?.close();
  }, 60_000);

  it('sends one 2,000-recipient campaign from both instances, every recipient exactly once, and completes it', async (context) => {
    if (!scaleOut) {
      context.skip(skipReason ?? 'the deployment did not start');
      return;
    }
    const { simulator, instances, db } = scaleOut;
    const [first] = instances;
    if (!first) throw new Error('no instance started');
    const sender = await prepareFlowSender(first.url, 10_000);
    const accepted = await sendFlowCampaign(sender, plainRecipients(RECIPIENTS, 9_400_000_000), 'Scale-out');
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body.data).toMatchObject({ accepted: RECIPIENTS, duplicates: 0, invalid: 0 });

    const campaign = await waitForCampaign(sender.client, accepted.body.data.campaignId, campaignSettled, { timeoutMs: 150_000, intervalMs: 250 });
    const { counts } = campaign;
    expect(counts.sent + counts.delivered + counts.read, JSON.stringify(counts)).toBe(RECIPIENTS);
    expect(counts.failed).toBe(0);

    const [shareA, shareB] = simulator.shares.map((share) => share.sends);
    expect(shareA, 'instance A sent nothing').toBeGreaterThan(0);
    expect(shareB, 'instance B sent nothing').toBeGreaterThan(0);
    expect((shareA ?? 0) + (shareB ?? 0)).toBe(RECIPIENTS);

    const received = simulator.simulator.receivedCounts();
    expect(received.repeated).toEqual([]);
    expect(received.recipients).toBe(RECIPIENTS);
    expect(received.sends).toBe(RECIPIENTS);

    expect(await providerIdCounts(db, accepted.body.data.campaignId)).toEqual({ rows: RECIPIENTS, withProviderId: RECIPIENTS, distinctProviderIds: RECIPIENTS, distinctRecipients: RECIPIENTS });
  }, 180_000);
});
