/**
 * Three instances on one PostgreSQL share a 20,000-recipient campaign, on a busy
 * machine: A (accepts the campaign, receives the status webhooks) and C run in this process, C
 * sending through a provider stand-in that answers some sends only after the lease has run out;
 * B runs as a child process and is killed with SIGKILL mid-campaign. Afterwards every message is
 * terminal, no recipient got the message twice except within the crash window (sends B had handed
 * to the provider and not seen answered; counted and printed), and the wallet equals the ledger to
 * the unit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TCreditHistoryResponse } from '@shared/types';
import { loadConfig } from '../../server/src/config';
import { startServer, type RunningServer } from '../../server/src/server';
import type { SimulatorServer } from '../../server/src/simulator/cloudApiSimulator';
import { startBusyLoops } from '../../server/test/busyLoops';
import { freePort, plainRecipients, prepareFlowSender, sendFlowCampaign, startFlowSimulator } from '../../server/test/campaignFlow';
import { childProcessEnv, testDeployment, type TestDeployment } from '../../server/test/deployment';
import { startFaultyProvider, type FaultyProvider } from '../../server/test/faultyProvider';
import { campaignSettled, waitForCampaign } from '../../server/test/polling';
import { endSettleWindowWhenQuiet } from '../../server/test/settleWindow';
import { testDatabaseKind } from '../../server/test/server';
import { ServerProcess, until } from '../../server/test/serverProcess';

const RECIPIENTS = 20_000;
const KILL_AFTER_RECIPIENTS = 5_000;
const KILL_DEADLINE_MS = 120_000;
const LEASE_SECONDS = 4;
/**
 * Production waits 600 s before resending an unknown send. With 45 s, a run with six busy loops
 * beside the whole suite sent 3,214 recipients twice: under that load status ingestion lags by
 * tens of seconds (a 47k-event backlog was seen in the crash test), so sends the provider had
 * taken were still unconfirmed when the window closed. On a machine whose PostgreSQL writes at
 * half that speed (2026-11-25), 120 s beside the whole suite sent 145 recipients twice. Some of
 * those repeats were not the window's: a stale claim and the current claim of one message in one
 * handoff round were both told to send (2026-11-28, `stale-claims.test.ts`). The window stays
 * long, and the test does not sit it out: once every status the provider will post is applied,
 * the messages still unknown are ones it never took, and their window is ended
 * (`endSettleWindowWhenQuiet`). Alone here that took the test from 364 s
 * (1,761 messages sat out the last four minutes of the window) to 96 s, 0 received twice either way;
 * beside three busy loops, 188 s and 172 s, with 0 and 6 received twice (the 6 within the crash
 * window; see `settleWindow.ts` for the gap that may explain them). On 2026-11-29, beside three
 * busy loops, 188, 16 and 3 received twice (1,842, 1,486 and 1,189 sends open at the kill); the
 * line now says how many of the repeats were sends whose window the test ended early, and in the
 * run that counted them it was all 3: the shortened window's gap, not a second send by a live worker.
 */
const SETTLE_SECONDS = 300;
const APP_SECRET = 'three-instances-app-secret';
const runs = testDatabaseKind() === 'postgres' && Boolean(process.env.TEST_DATABASE_URL);

describe.skipIf(!runs)('three instances on one PostgreSQL: one killed, one slowed, on a busy machine', () => {
  let deployment: TestDeployment;
  let simulator: SimulatorServer;
  let slowProvider: FaultyProvider;
  let a: RunningServer;
  let c: RunningServer;
  let b: ServerProcess;

  beforeAll(async () => {
    // Like Meta, the provider retries status webhooks that fail (A is busy; B dies with some in flight).
    simulator = await startFlowSimulator({ messagesPerSecond: 20_000 });
    slowProvider = await startFaultyProvider(simulator.url);
    // Every 25th send through C is answered two seconds after its lease would have run out.
    slowProvider.setMode('slow', { every: 25, delayMs: (LEASE_SECONDS + 2) * 1000 });
    deployment = testDeployment({
      name: 'three',
      database: 'postgres',
      env: {
        LOG_LEVEL: 'warn',
        SIMULATOR_URL: simulator.url,
        SIMULATOR_APP_SECRET: APP_SECRET,
        SANDBOX_MESSAGES_PER_SECOND: '1000',
        DISPATCH_LEASE_SECONDS: String(LEASE_SECONDS),
        DISPATCH_UNKNOWN_SETTLE_SECONDS: String(SETTLE_SECONDS),
      },
    });
    const env = deployment.env;
    a = await startServer(loadConfig({ ...env, PORT: '0' }));
    c = await startServer(loadConfig({ ...env, PORT: '0', SIMULATOR_URL: slowProvider.url }));
    const port = await freePort();
    b = new ServerProcess(`http://127.0.0.1:${port}`, { ...env, PORT: String(port), ...childProcessEnv() });
    await b.start();
    simulator.simulator.setWebhook({ url: `${a.url}/api/webhooks/whatsapp`, appSecret: APP_SECRET });
  }, 90_000);

  afterAll(async () => {
    await b?.stop();
    await c?.close();
    await a?.close();
    await slowProvider?.close();
    await simulator?.close();
    await deployment?.close();
  }, 60_000);

  it('ends with every message terminal, none sent twice outside the crash window, and the wallet equal to the ledger', async () => {
    const loops = startBusyLoops();
    try {
      const sender = await prepareFlowSender(a.url, 40_000);
      const started = performance.now();
      const accepted = await sendFlowCampaign(sender, plainRecipients(RECIPIENTS, 9_500_000_000), 'Three instances');
      expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
      const received = () => simulator.simulator.receivedCounts();
      // B dies mid-campaign: after 5,000 sends, or at the deadline with fewer, whichever comes first.
      // Beside three busy loops 5,000 went out in 27 s alone and in 49 s with the unit lanes beside;
      // beside every lane of the loaded suite, 300 s once did not see them (2026-12-02: sends the
      // one thread of the simulator, A and C did not answer within 15 s went `unknown` and sat out
      // the settle window). What the test checks holds wherever in the campaign the kill falls.
      const killBy = performance.now() + KILL_DEADLINE_MS;
      await until(() => received().recipients >= KILL_AFTER_RECIPIENTS || (received().recipients > 0 && performance.now() > killBy), KILL_DEADLINE_MS + 300_000, 'the first send before the kill');
      await b.kill('SIGKILL');
      const atKill = received();
      // Sends handed to the provider and not answered at the kill (B's, and A's and C's in flight): the most that can go out twice.
      const openRow = (await a.db('messages').where({ status: 'sending' }).whereNotNull('handedAt').count({ n: '*' }).first()) as { n: number | string } | undefined;
      const openAtKill = Number(openRow?.n ?? 0);
      expect(atKill.recipients, 'the kill came after the whole campaign was sent').toBeLessThan(RECIPIENTS);

      // The limit is the settle window's, should the provider's statuses never stop coming: beside the
      // whole suite on a machine whose PostgreSQL writes at half the speed of the last one, 6 minutes were not enough (2026-11-25).
      const windowEnd = endSettleWindowWhenQuiet({ db: a.db, simulator: simulator.simulator, campaignId: accepted.body.data.campaignId });
      const campaign = await waitForCampaign(sender.client, accepted.body.data.campaignId, campaignSettled, { timeoutMs: 720_000, intervalMs: 250 }).finally(windowEnd.stop);
      const { unknown: windowEnded, recipients } = await windowEnd.done;
      const windowEndedRecipients = new Set(recipients);
      const seconds = (performance.now() - started) / 1000;
      const { counts } = campaign;
      expect(counts.sent + counts.delivered + counts.read, JSON.stringify(counts)).toBe(RECIPIENTS);
      expect(counts.failed + counts.unknown + counts.queued + counts.sending).toBe(0);

      const after = received();
      expect(after.recipients).toBe(RECIPIENTS);
      expect(after.repeated.length, JSON.stringify(after.repeated.slice(0, 5))).toBeLessThanOrEqual(openAtKill);
      expect(slowProvider.stats.slowed, 'C answered no send after its lease').toBeGreaterThan(0);

      // The wallet is the ledger's sum, to the unit, and the campaign was charged once.
      const balance = await a.services.wallet.balance(sender.userId);
      const ledger = (await a.db('credit_transactions').where({ userId: sender.userId }).sum({ units: 'amount' }).first()) as { units: number | string | null } | undefined;
      expect(balance).toBe(Number(ledger?.units ?? 0));
      const history = await sender.client.get<TCreditHistoryResponse>('/api/credits/history?limit=200');
      expect(history.body.history.filter((entry) => entry.type === 'CAMPAIGN_DEBIT')).toHaveLength(1);
      expect(history.body.history.filter((entry) => entry.type.includes('REFUND'))).toEqual([]);
      expect(balance).toBe(Math.round(sender.openingBalance * 10_000) - campaign.totalRecipients * Math.round(campaign.pricePerMessage * 10_000));

      console.log(
        `three-instances: ${RECIPIENTS.toLocaleString('en-IN')} recipients in ${seconds.toFixed(1)} s with ${loops.count} busy loops; ` +
          `B killed after ${atKill.recipients.toLocaleString('en-IN')}; ${openAtKill} sends open at the kill (crash window), ` +
          `${after.repeated.length} received twice (${after.repeated.filter((repeat) => windowEndedRecipients.has(repeat.to)).length} of them sends whose settle window the test ended early); ${slowProvider.stats.slowed} sends through C answered after the lease; ` +
          `${windowEnded} unknown sends the provider never took sent again without waiting out the settle window`,
      );
    } finally {
      await loops.stop();
    }
  }, 900_000);
});
