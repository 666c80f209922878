/**
 * A failed message is refunded once even when two refunds race. Two
 * transactions both see `refunded = false`; the second waits for the first's row lock. The flag
 * must flip only where it is still false and pay only the rows it flipped. PostgreSQL only:
 * SQLite has a single writer, so its refunds cannot interleave.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../../server/test/factories';
import { backendPid, waitUntilBlockedBy } from '../../server/test/postgresLocks';
import { startTestServer, testDatabaseKind, type TestServer } from '../../server/test/server';

describe.skipIf(testDatabaseKind() !== 'postgres' || !process.env.TEST_DATABASE_URL)('refund flag under concurrent refunds', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('pays a failed message once when two refunds of it overlap', async () => {
    const user = await buildUser(server, { creditRupees: 10 });
    const now = new Date().toISOString();
    const sender = (await server.db('whatsapp_numbers').insert({ userId: user.id, provider: 'simulator', phoneNumberId: `race${Date.now()}`, displayNumber: '', label: 'race', messagesPerSecond: 10, isSandbox: true, isActive: true, createdAt: now, updatedAt: now }).returning('id')) as { id: number }[];
    const campaign = (await server.db('campaigns').insert({
      userId: user.id, templateId: null, senderNumberId: sender[0]!.id, name: 'race', source: 'quick', templateName: 'promo', templateLanguage: 'en_US', category: 'MARKETING',
      priceUnits: 8000, status: 'running', totalRecipients: 1, billableCount: 1, totalCostUnits: 8000, createdAt: now, updatedAt: now,
    }).returning('id')) as { id: number }[];
    const campaignId = campaign[0]!.id;
    const message = (await server.db('messages').insert({ campaignId, userId: user.id, recipient: '919800000001', status: 'failed', priceUnits: 8000, dedupeKey: 'r'.repeat(64), attempts: 1, refunded: false, createdAt: now, updatedAt: now }).returning('id')) as { id: number | string }[];
    const messageId = Number(message[0]!.id);
    const outcomes = server.services.engine.outcomes;

    const first = await server.db.transaction();
    await outcomes.refundFailed(first, [messageId]);
    const firstPid = await backendPid(first);
    const second = server.db.transaction((trx) => outcomes.refundFailed(trx, [messageId]));
    // The second refund is blocked behind the first's row lock.
    await waitUntilBlockedBy(server.db, firstPid, 'the second refund', 15_000);
    await first.commit();
    await second;

    const refunds = await server.db('creditTransactions').where({ userId: user.id, type: 'REFUND_ADD' });
    expect(refunds).toHaveLength(1);
    const balance = (await server.db('users').where({ id: user.id }).first('creditBalance')) as { creditBalance: number | string };
    expect(Number(balance.creditBalance)).toBe(10 * 10_000 + 8000);
  });
});
