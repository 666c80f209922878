import { plainRecipients, prepareFlowSender, sendFlowCampaign } from '../../server/test/campaignFlow';
import { campaignSettled, pollUntil, waitForCampaign } from '../../server/test/polling';
import { providerIdCounts, startScaleOut } from '../../server/test/scaleOut';
import { printFigure } from './figures';

/** Each instance's per-number pacing (SANDBOX_MESSAGES_PER_SECOND), as in the single-instance dispatch bench. */
const LIMIT = 1000;
const INSTANCES = 2;
/** 200,000 by default; BENCH_SCALE_OUT_RECIPIENTS makes a shorter run while working on it. */
const RECIPIENTS = Number(process.env.BENCH_SCALE_OUT_RECIPIENTS ?? 200_000);

/**
 * Scale-out proof: two server processes on one PostgreSQL schema send one campaign
 * accepted by the first, each to its own port of one simulator (server/test/scaleOut.ts). The
 * combined rate runs from the first send the simulator took to the last, against the ceiling of
 * two instances each at its per-number limit; then each instance's share, and that every recipient
 * got exactly one send (the simulator's count per recipient and the messages' provider ids).
 */
export const scaleOutBench = {
  name: 'dispatch, two instances',
  databases: ['postgres'] as const,
  async run(): Promise<void> {
    // Each with the pool of a production instance (DATABASE_POOL_MAX default), as the dispatch bench.
    const scaleOut = await startScaleOut({ name: 'bench_scale', count: INSTANCES, messagesPerSecond: LIMIT, env: { DATABASE_POOL_MAX: '10' } });
    try {
      const { simulator, instances, db } = scaleOut;
      const [first] = instances;
      if (!first) throw new Error('no instance started');
      const sender = await prepareFlowSender(first.url, 10_000_000);
      const started = performance.now();
      const accepted = await sendFlowCampaign(sender, plainRecipients(RECIPIENTS, 9_500_000_000), 'Scale-out bench');
      if (accepted.status !== 200) throw new Error(`bulk-quick-send answered ${accepted.status}: ${JSON.stringify(accepted.body)}`);
      const acceptedSeconds = (performance.now() - started) / 1000;
      const { campaignId } = accepted.body.data;
      // Until the last send, progress is read from the simulator in this process. The campaign's
      // counts are a grouped read of its 200,000 messages (0.11 s of PostgreSQL each): read every
      // second, as before, they took a twelfth of a core from the instances being measured.
      await pollUntil(
        async () => simulator.shares.reduce((sum, share) => sum + share.sends, 0),
        (sends) => sends >= RECIPIENTS,
        { what: `${RECIPIENTS} sends at the simulator`, timeoutMs: 30 * 60_000, intervalMs: 250 },
      );
      const campaign = await waitForCampaign(sender.client, campaignId, campaignSettled, { timeoutMs: 30 * 60_000, intervalMs: 1_000 });
      const totalSeconds = (performance.now() - started) / 1000;

      const sends = simulator.shares.reduce((sum, share) => sum + share.sends, 0);
      const firstAt = Math.min(...simulator.shares.filter((s) => s.sends > 0).map((s) => s.firstAt));
      const lastAt = Math.max(...simulator.shares.map((s) => s.lastAt));
      const combined = sends / ((lastAt - firstAt) / 1000);
      const received = simulator.simulator.receivedCounts();
      const ids = await providerIdCounts(db, campaignId);
      const once = received.repeated.length === 0 && received.recipients === RECIPIENTS && received.sends === RECIPIENTS && ids.distinctProviderIds === RECIPIENTS && ids.withProviderId === RECIPIENTS;

      console.log(`  ${RECIPIENTS.toLocaleString('en-IN')} recipients accepted by instance A over HTTP in ${acceptedSeconds.toFixed(1)} s; campaign ${campaign.status} after ${totalSeconds.toFixed(1)} s`);
      console.log(`  combined dispatch, first to last send: ${Math.round(combined)}/s (each instance paced at ${LIMIT}/s per number; ceiling ${INSTANCES * LIMIT}/s)`);
      simulator.shares.forEach((share, i) => {
        const seconds = (share.lastAt - share.firstAt) / 1000;
        console.log(`  instance ${String.fromCharCode(65 + i)}: ${share.sends.toLocaleString('en-IN')} sends (${((share.sends / Math.max(1, sends)) * 100).toFixed(1)}%), ${seconds > 0 ? Math.round(share.sends / seconds) : 0}/s over its own span`);
      });
      console.log(
        `  sent twice: ${received.repeated.length} recipients (simulator: ${received.recipients.toLocaleString('en-IN')} recipients, ${received.sends.toLocaleString('en-IN')} sends; ` +
          `messages: ${ids.rows.toLocaleString('en-IN')} rows, ${ids.distinctProviderIds.toLocaleString('en-IN')} distinct provider ids)${once ? '' : ' -- NOT exactly once'}; campaign counts ${JSON.stringify(campaign.counts)}`,
      );
      // Dead rows pile up without it (four updates per message, a status event inserted and deleted for each status).
      const autovacuum = ((await db.raw('show autovacuum')) as { rows: { autovacuum: string }[] }).rows[0]?.autovacuum ?? 'unknown';
      console.log(`  PostgreSQL autovacuum: ${autovacuum}${autovacuum === 'on' ? '' : " (this server's setting; PostgreSQL's default, and any production server's, is on)"}`);
      printFigure({ db: 'postgres', figure: 'dispatch_two_instances_per_second', value: Math.round(combined), ceiling: INSTANCES * LIMIT, unit: 'messages/s' });
    } finally {
      await scaleOut.close();
    }
  },
};
