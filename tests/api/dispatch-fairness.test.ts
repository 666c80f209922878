/**
 * Two numbers' campaigns go out side by side: the campaign accepted second does not wait for the
 * first to finish. Each lane (SQLite) or worker (pg-boss) that would only wait on a busy number's
 * rate takes the other number's work instead, so the second campaign's first send comes before
 * the first campaign is half sent. Claimed oldest first, it came after nearly all of it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plainRecipients } from '../../server/test/campaignFlow';
import { buildTemplate, signedInClient } from '../../server/test/factories';
import { waitForCampaign } from '../../server/test/polling';
import { quickSend } from '../../server/test/sending';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';

const VALUES = { '1': 'Asha', '2': 'K-1' };
const PER_CAMPAIGN = 20;

describe.skipIf(postgresUnavailable)('dispatch: numbers take turns', () => {
  let server: TestServer;
  beforeAll(async () => {
    // Slow numbers, small batches and two lanes: one number's batch is enough to make it busy.
    server = await startTestServer({ SANDBOX_MESSAGES_PER_SECOND: '10', DISPATCH_BATCH_SIZE: '2', DISPATCH_WORKERS: '2' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("sends a second number's campaign beside the first one's, not after it", { timeout: 120_000 }, async () => {
    const first = await signedInClient(server, { creditRupees: 100 });
    const second = await signedInClient(server, { creditRupees: 100 });
    const firstTemplate = await buildTemplate(server, first.user, { body: 'Hi {{1}}, your code is {{2}}' });
    const secondTemplate = await buildTemplate(server, second.user, { body: 'Hi {{1}}, your code is {{2}}' });
    const earlier = await quickSend(first.client, { template: firstTemplate, recipients: plainRecipients(PER_CAMPAIGN, 9_721_000_000), variables: VALUES });
    const later = await quickSend(second.client, { template: secondTemplate, recipients: plainRecipients(PER_CAMPAIGN, 9_722_000_000), variables: VALUES });
    for (const [client, id] of [
      [first.client, earlier.campaignId],
      [second.client, later.campaignId],
    ] as const) {
      const done = await waitForCampaign(client, id, (c) => c.status === 'completed', { timeoutMs: 90_000 });
      expect(done.counts.failed).toBe(0);
    }
    const sentTimes = async (campaignId: number) =>
      ((await server.db('messages').where({ campaignId }).whereNotNull('sentAt').orderBy('sentAt').select('sentAt')) as { sentAt: string | Date }[]).map((row) => new Date(row.sentAt).getTime());
    const earlierSends = await sentTimes(earlier.campaignId);
    const laterSends = await sentTimes(later.campaignId);
    expect(earlierSends).toHaveLength(PER_CAMPAIGN);
    expect(laterSends).toHaveLength(PER_CAMPAIGN);
    expect(laterSends[0]).toBeLessThan(earlierSends[PER_CAMPAIGN / 2] as number);
  });
});
