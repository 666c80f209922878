/**
 * Sends whose outcome the network hides: a provider that takes a send and never
 * answers, one that answers after the lease has run out, and one whose connections reset before or
 * after it took the send. Each ends with every message settled, none sent twice and the wallet
 * charged exactly once per message. The simulator (behind a misbehaving proxy) records what each
 * recipient received and echoes our reference in its status webhooks, which settle the sends that
 * never got an answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TCampaign } from '@shared/schemas/sending';
import type { TMeResponse } from '@shared/types';
import type { SimulatorServer } from '../../server/src/simulator/cloudApiSimulator';
import { sendReference } from '../../server/src/sending/claims';
import { plainRecipients, prepareFlowSender, sendFlowCampaign, startFlowSimulator } from '../../server/test/campaignFlow';
import { pollUntil, waitForCampaign } from '../../server/test/polling';
import { startFaultyProvider, type FaultMode, type FaultyProvider } from '../../server/test/faultyProvider';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';

const APP_SECRET = 'provider-faults-app-secret';
const RECIPIENTS = 240;
/** A campaign longer than the silence lets through: the number's rate would send it all in 10 s. */
const SILENT_RECIPIENTS = 2_000;
const LEASE_SECONDS = 2;
const SETTLE_SECONDS = 8;

const finished = (c: TCampaign) => c.status === 'completed' && c.counts.queued === 0 && c.counts.sending === 0 && c.counts.unknown === 0;
const rupees = (value: number) => Math.round(value * 100) / 100;

describe.skipIf(postgresUnavailable)('sends with unknown outcomes: timeouts, slow answers, resets', () => {
  let simulator: SimulatorServer;
  let provider: FaultyProvider;
  let server: TestServer;

  beforeAll(async () => {
    simulator = await startFlowSimulator({ messagesPerSecond: 10_000 });
    provider = await startFaultyProvider(simulator.url);
    server = await startTestServer({
      SIMULATOR_URL: provider.url,
      SIMULATOR_APP_SECRET: APP_SECRET,
      SANDBOX_MESSAGES_PER_SECOND: '200',
      DISPATCH_SEND_TIMEOUT_SECONDS: '1',
      DISPATCH_LEASE_SECONDS: String(LEASE_SECONDS),
      DISPATCH_UNKNOWN_SETTLE_SECONDS: String(SETTLE_SECONDS),
    });
    simulator.simulator.setWebhook({ url: `${server.url}/api/webhooks/whatsapp`, appSecret: APP_SECRET });
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await provider?.close();
    await simulator?.close();
  }, 30_000);

  async function sendThrough(mode: FaultMode, options: { every: number; delayMs?: number }, first: number) {
    provider.setMode(mode, options);
    const sender = await prepareFlowSender(server.url, 1_000);
    const recipients = plainRecipients(RECIPIENTS, first);
    const accepted = await sendFlowCampaign(sender, recipients, `Faults: ${mode}`);
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    const campaign = await waitForCampaign(sender.client, accepted.body.data.campaignId, finished, { timeoutMs: 90_000, intervalMs: 250 });
    const { counts } = campaign;
    expect(counts.sent + counts.delivered + counts.read, JSON.stringify(counts)).toBe(RECIPIENTS);
    expect(counts.failed).toBe(0);

    const wanted = new Set(recipients.map((r) => r.replace(/\D/g, '')));
    const received = simulator.simulator.receivedCounts();
    expect(received.repeated.filter((r) => wanted.has(r.to)), 'recipients sent twice').toEqual([]);
    const rows = (await server.db('messages').where({ campaignId: campaign.id }).select('status', 'providerMessageId', 'refunded')) as { status: string; providerMessageId: string | null; refunded: unknown }[];
    expect(rows.every((row) => row.providerMessageId !== null && !row.refunded)).toBe(true);

    const me = await sender.client.get<TMeResponse>('/api/auth/me');
    expect(me.body.user.creditBalance).toBe(rupees(sender.openingBalance - campaign.pricePerMessage * RECIPIENTS));
    return { stats: { ...provider.stats }, campaign };
  }

  it('a provider that takes the send and never answers: parked as unknown, settled by the status webhook, not resent', { timeout: 120_000 }, async () => {
    const { stats, campaign } = await sendThrough('timeout', { every: 4 }, 9_400_000_000);
    expect(stats.timedOut).toBeGreaterThan(0);

    // Forward only: a late `sent` (with our reference) and a late answer of the send change nothing.
    const settled = (await server.db('messages').where({ campaignId: campaign.id }).whereIn('status', ['delivered', 'read']).first('id', 'status', 'claimToken', 'providerMessageId')) as { id: number; status: string; claimToken: string; providerMessageId: string };
    await server.services.engine.ingest.store([
      { providerMessageId: settled.providerMessageId, status: 'sent', timestamp: new Date(), recipient: '', phoneNumberId: null, callbackData: sendReference({ id: Number(settled.id), claimToken: settled.claimToken }) },
    ]);
    await server.services.engine.ingest.drain();
    await server.services.engine.outcomes.recordSendResults({ sent: [{ id: Number(settled.id), claimToken: settled.claimToken, providerMessageId: 'wamid.LATE' }], retry: [], failed: [] });
    // The simulator's own `read` may still come for a delivered message meanwhile (forward); nothing goes back.
    const after = (await server.db('messages').where({ id: settled.id }).first('status', 'providerMessageId')) as { status: string; providerMessageId: string };
    expect(after.providerMessageId).toBe(settled.providerMessageId);
    expect(settled.status === 'read' ? ['read'] : ['delivered', 'read']).toContain(after.status);
    console.log(`provider-faults timeout: ${stats.timedOut} of ${RECIPIENTS} sends unanswered, all settled by webhook, none sent twice`);
  });

  it('a provider that goes silent: fewer and fewer sends go into the silence, and every one goes once it answers', { timeout: 180_000 }, async () => {
    provider.setMode('timeout', { every: 1 });
    const sender = await prepareFlowSender(server.url, 10_000);
    const recipients = plainRecipients(SILENT_RECIPIENTS, 9_430_000_000);
    const accepted = await sendFlowCampaign(sender, recipients, 'Faults: silent');
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    // Every worker's batch used to keep sending into the silence at the number's rate, 256 sends in
    // flight, until all of them had gone out (each to wait out the settle window). The window
    // halves each silent round instead: the first round, then 128, 64, ... down to one probe,
    // about 500 sends in all.
    const { senderNumberId } = (await server.db('campaigns').where({ id: accepted.body.data.campaignId }).first('senderNumberId')) as { senderNumberId: number };
    await pollUntil(
      async () => ({ window: server.services.engine.dispatcher.sendWindowSize(senderNumberId), silent: provider.stats.timedOut }),
      ({ window }) => window === 1,
      { what: "the silent provider's send window closed to one probe", timeoutMs: 120_000, intervalMs: 100 },
    );
    const intoSilence = provider.stats.timedOut;
    expect(intoSilence).toBeLessThan(SILENT_RECIPIENTS / 2);

    provider.setMode('none');
    const campaign = await waitForCampaign(sender.client, accepted.body.data.campaignId, finished, { timeoutMs: 120_000, intervalMs: 250 });
    expect(campaign.counts.sent + campaign.counts.delivered + campaign.counts.read, JSON.stringify(campaign.counts)).toBe(SILENT_RECIPIENTS);
    const wanted = new Set(recipients.map((r) => r.replace(/\D/g, '')));
    expect(simulator.simulator.receivedCounts().repeated.filter((r) => wanted.has(r.to)), 'recipients sent twice').toEqual([]);
    console.log(`provider-faults silent: ${intoSilence} of ${SILENT_RECIPIENTS} sends went into the silence before the window closed, none sent twice`);
  });

  it('a provider that answers after the lease ran out: the lease is renewed, no other worker sends them', { timeout: 120_000 }, async () => {
    const { stats } = await sendThrough('slow', { every: 5, delayMs: (LEASE_SECONDS + 2) * 1000 }, 9_410_000_000);
    expect(stats.slowed).toBeGreaterThan(0);
    console.log(`provider-faults slow: ${stats.slowed} of ${RECIPIENTS} sends answered after ${LEASE_SECONDS + 2} s (lease ${LEASE_SECONDS} s), none sent twice`);
  });

  it('connections reset before or after the provider took the send: settled by webhook or sent once after the window', { timeout: 120_000 }, async () => {
    const { stats } = await sendThrough('reset', { every: 4 }, 9_420_000_000);
    expect(stats.resetBefore).toBeGreaterThan(0);
    expect(stats.resetAfter).toBeGreaterThan(0);
    console.log(`provider-faults reset: ${stats.resetBefore} reset before the provider, ${stats.resetAfter} after; none sent twice`);
  });
});
