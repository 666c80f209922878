/**
 * A cancel that PostgreSQL ends as a deadlock victim runs again instead of answering 500 (seen
 * once on a loaded machine: a 16,000-recipient campaign's cancel answered 500 while it was being
 * dispatched). The cancel takes the campaign's row, then its messages in scan order, while the
 * dispatcher and status ingestion lock messages first and the campaign after. PostgreSQL only:
 * SQLite has a single writer, so its transactions cannot deadlock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@shared/messages';
import type { TCampaign, TCampaignAccepted } from '@shared/schemas/sending';
import { plainRecipients } from '../../server/test/campaignFlow';
import { buildTemplate, signedInClient } from '../../server/test/factories';
import { backendPid, waitUntilBlockedBy } from '../../server/test/postgresLocks';
import { sandboxNumber } from '../../server/test/sending';
import { startTestServer, testDatabaseKind, type TestServer } from '../../server/test/server';

/** Marketing's default price, in credit units (Rs 0.80). */
const PRICE_UNITS = 8_000;

describe.skipIf(testDatabaseKind() !== 'postgres' || !process.env.TEST_DATABASE_URL)('a cancel caught in a deadlock', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('is run again after PostgreSQL ends it as the deadlock victim: 200, every message cancelled and refunded once', { timeout: 60_000 }, async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 10 });
    const template = await buildTemplate(server, user, { body: 'Hi {{1}}' });
    const number = await sandboxNumber(client);
    // Scheduled for tomorrow, so no worker touches its messages but the ones this test locks.
    const accepted = await client.post<{ data: TCampaignAccepted }>('/api/whatsapp/quick-send', {
      phone_number_id: number.phone_number_id,
      template_name: template.name,
      language: template.language,
      recipients_text: plainRecipients(5, 9_874_400_000).join('\n'),
      variables: { '1': 'Asha' },
      scheduledAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    const campaignId = accepted.body.data.campaignId;
    const firstMessage = (await server.db('messages').where({ campaignId }).orderBy('id').first('id')) as { id: number | string };

    // Another writer holds one of the campaign's messages, as a worker writing a result would.
    const writer = await server.db.transaction();
    // Only the cancel looks for the deadlock, so it is the one PostgreSQL ends.
    await writer.raw("set local deadlock_timeout = '60s'");
    await writer('messages').where({ id: firstMessage.id }).forUpdate().select('id');
    const writerPid = await backendPid(writer);

    const cancel = client.post<{ data: TCampaign; message: string }>(`/api/campaigns/${campaignId}/cancel`);
    await waitUntilBlockedBy(server.db, writerPid, 'the cancel');
    // The writer now wants the campaign's row, which the waiting cancel has updated: a cycle.
    await writer('campaigns').where({ id: campaignId }).update({ updatedAt: new Date().toISOString() });
    await writer.commit();

    const answer = await cancel;
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.message).toBe(messages.campaigns.scheduledCancelled);
    expect(answer.body.data).toMatchObject({ status: 'cancelled', cancelled: 5 });
    expect(answer.body.data.counts).toMatchObject({ queued: 0, cancelled: 5 });
    const refunds = (await server.db('credit_transactions').where({ userId: user.id, type: 'REFUND_ADD', referenceId: String(campaignId) }).select('amount')) as { amount: number | string }[];
    expect(refunds.reduce((sum, r) => sum + Number(r.amount), 0)).toBe(5 * PRICE_UNITS);
    expect(await server.services.wallet.balance(user.id)).toBe(10 * 10_000);
  });
});
