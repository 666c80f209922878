import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@shared/messages';
import type { TCreditAdjustmentResponse, TCreditHistoryResponse } from '@shared/types';
import { TestClient } from '../../server/test/client';
import { buildTemplate, buildUser, signedInClient } from '../../server/test/factories';
import { quickSend } from '../../server/test/sending';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';
import type { AppError } from '../../server/src/errors';

describe.skipIf(postgresUnavailable)('wallet ledger', () => {
  let server: TestServer;
  let admin: TestClient;
  beforeAll(async () => {
    server = await startTestServer();
    ({ client: admin } = await signedInClient(server, { role: 'admin' }));
  });
  afterAll(async () => {
    await server?.close();
  });

  /** Replays a user's ledger: the sum of amounts and the last balance_after must equal the balance. */
  async function assertLedgerMatchesBalance(userId: number): Promise<number> {
    const entries = (await server.db('credit_transactions').where({ userId }).orderBy('id', 'asc')) as { amount: number; balanceAfter: number }[];
    let running = 0;
    for (const entry of entries) {
      running += Number(entry.amount);
      expect(Number(entry.balanceAfter)).toBe(running);
      expect(running).toBeGreaterThanOrEqual(0);
    }
    const { creditBalance } = (await server.db('users').where({ id: userId }).first('creditBalance')) as { creditBalance: number };
    expect(Number(creditBalance)).toBe(running);
    return running;
  }

  it('50 parallel debits and credits never overdraw, and the ledger replays to the balance', async () => {
    const user = await buildUser(server, { creditRupees: 10 });
    const operations = Array.from({ length: 50 }, (_, i) => {
      // 30 debits of ₹1 against ₹10 + 20 credits of ₹0.50: some debits must be refused.
      const amountUnits = i % 5 < 3 ? -10_000 : 5_000;
      return server.services.wallet
        .apply({ userId: user.id, amountUnits, type: amountUnits > 0 ? 'TEST_ADD' : 'TEST_DEBIT', description: `op ${i}`, idempotencyKey: `concurrency:${user.id}:${i}` })
        .then(() => 'applied' as const)
        .catch((error: AppError) => {
          expect(error.code).toBe('insufficient_credits');
          return 'refused' as const;
        });
    });
    const outcomes = await Promise.all(operations);
    const final = await assertLedgerMatchesBalance(user.id);
    const applied = (await server.db('credit_transactions').where({ userId: user.id }).count({ n: '*' }).first()) as { n: number | string };
    expect(Number(applied.n)).toBe(outcomes.filter((o) => o === 'applied').length + 1);
    expect(final).toBeGreaterThanOrEqual(0);
  });

  it('50 parallel admin adjustments over HTTP compose exactly', async () => {
    const user = await buildUser(server, { creditRupees: 100 });
    const requests = Array.from({ length: 50 }, (_, i) =>
      admin.post<TCreditAdjustmentResponse>(`/api/admin/users/${user.id}/credits`, { mode: i % 2 ? 'add' : 'deduct', amount: 3, reason: `parallel ${i}` }),
    );
    const responses = await Promise.all(requests);
    expect(responses.every((r) => r.status === 200)).toBe(true);
    expect(await assertLedgerMatchesBalance(user.id)).toBe(100 * 10_000);
  });

  it('refuses a debit the wallet cannot cover, leaving it untouched', async () => {
    const user = await buildUser(server, { creditRupees: 1 });
    await expect(
      server.services.wallet.apply({ userId: user.id, amountUnits: -10_001, type: 'TEST_DEBIT', description: 'too much', idempotencyKey: `over:${user.id}` }),
    ).rejects.toMatchObject({ status: 422, code: 'insufficient_credits', message: messages.wallet.insufficientCredits });
    expect(await assertLedgerMatchesBalance(user.id)).toBe(10_000);
  });

  it('has the database refuse a negative balance even if code tried', async () => {
    const user = await buildUser(server);
    await expect(server.db('users').where({ id: user.id }).update({ creditBalance: -1 })).rejects.toThrow(/check|constraint/i);
  });

  it('applies an idempotency key once', async () => {
    const user = await buildUser(server);
    const entry = { userId: user.id, amountUnits: 50_000, type: 'TEST_ADD', description: 'once', idempotencyKey: `once:${user.id}` };
    const results = await Promise.all([1, 2, 3].map(() => server.services.wallet.apply(entry)));
    expect(results.filter((r) => r.applied)).toHaveLength(1);
    expect(await assertLedgerMatchesBalance(user.id)).toBe(50_000);
  });

  it('charges a campaign once, and refunds a failed message of it once however often asked', async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 10 });
    const template = await buildTemplate(server, user, { body: 'Hello {{1}}' });
    const accepted = await quickSend(client, { template, recipients: ['919876543210', '919876543211', '919876543212'], variables: { '1': 'Asha' } });
    // A second debit of the same campaign's key is a retry: it moves nothing.
    await server.db.transaction((trx) =>
      server.services.wallet.debitCampaign(trx, { userId: user.id, campaignId: accepted.campaignId, units: 24_000, description: 'retry of the same campaign' }),
    );
    const charged = await server.services.wallet.balance(user.id);
    const [message] = (await server.db('messages').where({ campaignId: accepted.campaignId }).orderBy('id').limit(1).select('id', 'priceUnits')) as { id: number; priceUnits: number }[];
    await server.db('messages').where({ id: message!.id }).update({ status: 'failed', claimToken: null });
    const refunds = await Promise.all([1, 2].map(() => server.db.transaction((trx) => server.services.wallet.refundMessages(trx, [Number(message!.id)]))));
    expect(refunds.map((refund) => refund.messageIds.length).sort()).toEqual([0, 1]);
    expect(await assertLedgerMatchesBalance(user.id)).toBe(charged + Number(message!.priceUnits));
    expect(await server.db('campaigns').where({ id: accepted.campaignId }).first('refundedUnits')).toMatchObject({ refundedUnits: Number(message!.priceUnits) });
  });

  it('pages the credit history newest first', async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 5 });
    for (let i = 0; i < 4; i += 1) {
      await server.services.wallet.apply({ userId: user.id, amountUnits: 10_000, type: 'TEST_ADD', description: `top ${i}`, idempotencyKey: `page:${user.id}:${i}` });
    }
    const first = await client.get<TCreditHistoryResponse>('/api/credits/history?page=1&limit=2');
    expect(first.body.history.map((e) => e.description)).toEqual(['top 3', 'top 2']);
    expect(first.body.pagination).toEqual({ page: 1, limit: 2, total: 5, totalPages: 3, hasMore: true });
    const last = await client.get<TCreditHistoryResponse>('/api/credits/history?page=3&limit=2');
    expect(last.body.history).toEqual([expect.objectContaining({ type: 'OPENING_BALANCE_ADD', amount: 5, balanceAfter: 5 })]);
    expect(last.body.pagination.hasMore).toBe(false);
    const junk = await client.get<TCreditHistoryResponse>('/api/credits/history?page=abc&limit=99999');
    expect(junk.body.pagination).toMatchObject({ page: 1, limit: 50 });
  });

  it('replays to the balance for every user after all the activity above', async () => {
    const users = (await server.db('users').select('id')) as { id: number }[];
    expect(users.length).toBeGreaterThan(5);
    for (const { id } of users) await assertLedgerMatchesBalance(id);
  });

  it('keeps each user to their own history', async () => {
    const { client: alice } = await signedInClient(server, { creditRupees: 1 });
    const { user: bob } = await signedInClient(server, { creditRupees: 2 });
    const history = await alice.get<TCreditHistoryResponse>('/api/credits/history');
    expect(history.body.history).toHaveLength(1);
    expect(history.body.history[0]?.amount).toBe(1);
    expect(bob.id).toBeGreaterThan(0);
  });
});

describe.skipIf(postgresUnavailable)('admin wallet management', () => {
  let server: TestServer;
  let admin: TestClient;
  let adminId: number;
  beforeAll(async () => {
    server = await startTestServer();
    const made = await signedInClient(server, { role: 'admin' });
    admin = made.client;
    adminId = made.user.id;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('adds and deducts with a reason; a deduction floors at zero; both are audited', async () => {
    const user = await buildUser(server, { creditRupees: 100 });
    const added = await admin.post<TCreditAdjustmentResponse>(`/api/admin/users/${user.id}/credits`, { mode: 'add', amount: 50.555, reason: 'Goodwill' });
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ message: messages.adminWallet.credited, amount: 50.56, creditBalance: 150.56, transaction: { type: 'ADMIN_ADD', description: 'Goodwill', amount: 50.56 } });
    const deducted = await admin.post<TCreditAdjustmentResponse>(`/api/admin/users/${user.id}/credits`, { mode: 'deduct', amount: 1000, reason: 'Chargeback' });
    expect(deducted.body).toMatchObject({ message: messages.adminWallet.debited, amount: 150.56, creditBalance: 0, transaction: { type: 'ADMIN_DEDUCT', amount: -150.56 } });
    const again = await admin.post(`/api/admin/users/${user.id}/credits`, { mode: 'deduct', amount: 5, reason: 'Nothing left' });
    expect(again.status).toBe(422);
    expect(again.body).toMatchObject({ error: messages.adminWallet.nothingToDeduct });
    const audit = (await server.db('audit_log').where({ action: 'wallet.adjust', targetId: String(user.id) })) as { actorUserId: number; details: string }[];
    expect(audit).toHaveLength(2);
    expect(audit[0]?.actorUserId).toBe(adminId);
    expect(JSON.parse(audit[1]!.details)).toMatchObject({ mode: 'deduct', reason: 'Chargeback' });
  });

  it.each([
    [{ mode: 'add', amount: 0, reason: 'x' }, messages.adminWallet.amountInvalid, 'amount'],
    [{ mode: 'add', amount: -3, reason: 'x' }, messages.adminWallet.amountInvalid, 'amount'],
    [{ mode: 'add', amount: 'ten', reason: 'x' }, messages.adminWallet.amountInvalid, 'amount'],
    [{ mode: 'add', amount: 10, reason: '  ' }, messages.adminWallet.reasonRequired, 'reason'],
    [{ mode: 'add', amount: 10 }, messages.adminWallet.reasonRequired, 'reason'],
    [{ mode: 'steal', amount: 10, reason: 'x' }, messages.adminWallet.modeInvalid, 'mode'],
  ])('refuses %j', async (payload, message, field) => {
    const user = await buildUser(server);
    const response = await admin.post(`/api/admin/users/${user.id}/credits`, payload);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: message, field });
  });

  it('moves money once for a retried request with the same Idempotency-Key', async () => {
    const user = await buildUser(server);
    const headers = { 'Idempotency-Key': `retry-${user.id}-abcdef` };
    await admin.request('POST', `/api/admin/users/${user.id}/credits`, { mode: 'add', amount: 10, reason: 'Retry' }, headers);
    const retried = await admin.request<TCreditAdjustmentResponse>('POST', `/api/admin/users/${user.id}/credits`, { mode: 'add', amount: 10, reason: 'Retry' }, headers);
    expect(retried.body).toMatchObject({ amount: 10, creditBalance: 10 });
    expect((await admin.get<{ user: { creditBalance: number } }>(`/api/admin/users/${user.id}/details`)).body.user.creditBalance).toBe(10);
    expect(await server.db('audit_log').where({ action: 'wallet.adjust', targetId: String(user.id) })).toHaveLength(1);
  });

  it('keeps PUT /api/admin/users/{id} with creditBalance compatible only with a reason, as a ledger entry for the difference', async () => {
    const user = await buildUser(server, { creditRupees: 40 });
    const refused = await admin.put(`/api/admin/users/${user.id}`, { creditBalance: 25.5 });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: messages.adminWallet.balanceReasonRequired, code: 'balance_reason_required', field: 'reason' });
    expect((await admin.get<{ user: { creditBalance: number } }>(`/api/admin/users/${user.id}/details`)).body.user.creditBalance).toBe(40);
    // The same balance needs no reason: nothing moves.
    expect((await admin.put(`/api/admin/users/${user.id}`, { creditBalance: 40, name: 'Same Balance' })).status).toBe(200);
    const response = await admin.put(`/api/admin/users/${user.id}`, { creditBalance: 25.5, reason: 'Refund of an unused pack' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ user: { creditBalance: 25.5 } });
    const last = (await server.db('credit_transactions').where({ userId: user.id }).orderBy('id', 'desc').first()) as { type: string; amount: number; actorUserId: number };
    expect(last).toMatchObject({ type: 'ADMIN_DEDUCT', amount: -145_000, actorUserId: adminId, description: 'Refund of an unused pack' });
    const negative = await admin.put(`/api/admin/users/${user.id}`, { creditBalance: -1 });
    expect(negative.body).toMatchObject({ error: messages.validation.creditBalanceNegative, field: 'creditBalance' });
  });

  it('edits basic information with the spec messages and uniqueness', async () => {
    const user = await buildUser(server);
    const other = await buildUser(server);
    const ok = await admin.put(`/api/admin/users/${user.id}`, { name: 'Renamed', email: 'Renamed.Person@Example.in', phoneNumber: '+91 98765-43210', role: 'user' });
    expect(ok.body).toMatchObject({ user: { name: 'Renamed', email: 'renamed.person@example.in', phoneNumber: '919876543210' } });
    expect((await admin.put(`/api/admin/users/${user.id}`, { email: 'bad' })).body).toMatchObject({ error: messages.validation.emailInvalidAdmin });
    expect((await admin.put(`/api/admin/users/${user.id}`, { name: '' })).body).toMatchObject({ error: messages.validation.nameRequired });
    expect((await admin.put(`/api/admin/users/${user.id}`, { phoneNumber: '98x76' })).body).toMatchObject({ error: messages.validation.whatsappNumberInvalid });
    expect((await admin.put(`/api/admin/users/${user.id}`, { username: other.username })).status).toBe(409);
    expect((await admin.put('/api/admin/users/999999', { name: 'Nobody' })).status).toBe(404);
  });

  it('will not let an admin demote themselves', async () => {
    const response = await admin.put(`/api/admin/users/${adminId}`, { role: 'user' });
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({ error: messages.admin.cannotDemoteSelf });
  });

  it('changes a password, ending the user sessions', async () => {
    const { client, user } = await signedInClient(server);
    const response = await admin.post(`/api/admin/users/${user.id}/change-password`, { newPassword: 'set-by-admin' });
    expect(response.body).toMatchObject({ success: true, user: { name: user.name } });
    expect((await client.get('/api/auth/me')).status).toBe(401);
    expect((await new TestClient(server.url).post('/api/auth/login', { username: user.username, password: 'set-by-admin' })).status).toBe(200);
    expect((await admin.post(`/api/admin/users/${user.id}/change-password`, { newPassword: '123' })).body).toMatchObject({ error: messages.validation.passwordMin });
  });

  it('answers the user details and the read-only platform settings', async () => {
    const user = await buildUser(server, { creditRupees: 12 });
    const details = await admin.get(`/api/admin/users/${user.id}/details`);
    expect(details.body).toMatchObject({ success: true, user: { id: user.id, creditBalance: 12, businessInfo: null } });
    const settings = await admin.get('/api/admin/settings');
    expect(settings.body).toMatchObject({ settings: { platformWhatsappNumber: '15550000000', logRetentionDays: 90, cleanupSchedule: 'Daily at 02:00 UTC', payments: { enabled: true, sandbox: true } } });
  });

  it('keeps every new admin call to admins', async () => {
    const { client, user } = await signedInClient(server);
    for (const [method, path] of [
      ['GET', `/api/admin/users/${user.id}/details`],
      ['PUT', `/api/admin/users/${user.id}`],
      ['POST', `/api/admin/users/${user.id}/credits`],
      ['POST', `/api/admin/users/${user.id}/change-password`],
      ['GET', '/api/admin/settings'],
    ] as const) {
      expect((await client.request(method, path, method === 'GET' ? undefined : { creditBalance: 99999, mode: 'add', amount: 5, reason: 'x', newPassword: 'hijack1' })).status).toBe(403);
      expect((await new TestClient(server.url).request(method, path, method === 'GET' ? undefined : {})).status).toBe(401);
    }
  });
});
