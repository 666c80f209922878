/**
 * A `failed` status signed only with a customer's own app secret marks the message
 * failed without refund. An administrator lists those held refunds and releases them, once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillMessage, messages } from '@shared/messages';
import { formatRupees } from '@shared/money';
import type { THeldRefundsResponse, TReleaseHeldRefundsResponse } from '@shared/schemas/admin';
import type { User } from '../../server/src/models';
import type { TestClient } from '../../server/test/client';
import { buildCampaign, buildUser, signedInClient } from '../../server/test/factories';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';

describe.skipIf(postgresUnavailable)('admin release of held refunds', () => {
  let server: TestServer;
  let admin: TestClient;
  beforeAll(async () => {
    server = await startTestServer();
    admin = (await signedInClient(server, { role: 'admin' })).client;
  });
  afterAll(async () => {
    await server?.close();
  });

  /** A charged message of a campaign in the given state: `failed` + unrefunded is what the hold leaves. */
  async function message(user: User, status: 'failed' | 'delivered', refunded: boolean, priceUnits = 8000): Promise<number> {
    const built = await buildCampaign(server, user, { name: 'Diwali offer', status: 'completed', priceUnits, messages: [{ status, refunded, recipient: '919888880001' }] });
    return built.messages[0]!.id;
  }
  const balanceOf = async (user: User) => server.services.wallet.balance(user.id);
  const isRefunded = async (id: number) => Boolean(((await server.db('messages').where({ id }).first('refunded')) as { refunded: boolean | number }).refunded);

  it('is for administrators only', async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 1 });
    expect((await client.get(`/api/admin/users/${user.id}/held-refunds`)).status).toBe(403);
    const held = await message(user, 'failed', false);
    expect((await client.post(`/api/admin/users/${user.id}/held-refunds/release`, {})).status).toBe(403);
    expect(await isRefunded(held)).toBe(false);
  });

  it('lists only failed, charged, unrefunded messages and releases the chosen ones once, audited', async () => {
    const user = await buildUser(server, { creditRupees: 1 });
    const first = await message(user, 'failed', false);
    const second = await message(user, 'failed', false, 4000);
    await message(user, 'failed', true);
    await message(user, 'delivered', false);

    const listed = await admin.get<THeldRefundsResponse>(`/api/admin/users/${user.id}/held-refunds`);
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ count: 2, amount: 1.2 });
    expect(listed.body.messages.map((m) => m.id)).toEqual([first, second]);
    expect(listed.body.messages[0]).toMatchObject({ campaignName: 'Diwali offer', amount: 0.8, errorCode: 131026 });

    const before = await balanceOf(user);
    const released = await admin.post<TReleaseHeldRefundsResponse>(`/api/admin/users/${user.id}/held-refunds/release`, { messageIds: [first] });
    expect(released.status).toBe(200);
    expect(released.body).toMatchObject({ released: 1, amount: 0.8, message: fillMessage(messages.adminWallet.heldRefundsReleased, { count: '1', amount: formatRupees(0.8) }) });
    expect(await balanceOf(user)).toBe(before + 8000);
    expect(await isRefunded(first)).toBe(true);
    expect(await isRefunded(second)).toBe(false);
    const audit = (await server.db('audit_log').where({ action: 'refund.release_held', targetId: String(user.id) })) as { details: string }[];
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0]!.details)).toMatchObject({ messages: 1, amountUnits: 8000, messageIds: [first] });

    // Releasing the same message again pays nothing.
    const again = await admin.post(`/api/admin/users/${user.id}/held-refunds/release`, { messageIds: [first] });
    expect(again.status).toBe(422);
    expect(again.body.code).toBe('no_held_refunds');
    expect(await balanceOf(user)).toBe(before + 8000);
  });

  it('pays each held refund once when two administrators release all at the same moment', async () => {
    const user = await buildUser(server, { creditRupees: 1 });
    await message(user, 'failed', false);
    await message(user, 'failed', false);
    const before = await balanceOf(user);
    const answers = await Promise.all([
      admin.post<TReleaseHeldRefundsResponse>(`/api/admin/users/${user.id}/held-refunds/release`, {}),
      admin.post<TReleaseHeldRefundsResponse>(`/api/admin/users/${user.id}/held-refunds/release`, {}),
    ]);
    const releasedCount = answers.filter((a) => a.status === 200).reduce((sum, a) => sum + a.body.released, 0);
    expect(releasedCount).toBe(2);
    expect(answers.every((a) => a.status === 200 || (a.body as { code?: string }).code === 'no_held_refunds')).toBe(true);
    expect(await balanceOf(user)).toBe(before + 16_000);
    const refunds = await server.db('credit_transactions').where({ userId: user.id, type: 'REFUND_ADD' }).sum('amount as total').first();
    expect(Number((refunds as { total: number | string }).total)).toBe(16_000);
    const listed = await admin.get<THeldRefundsResponse>(`/api/admin/users/${user.id}/held-refunds`);
    expect(listed.body.count).toBe(0);
  });

  it("never releases another user's held message through this user's id", async () => {
    const owner = await buildUser(server, { creditRupees: 1 });
    const other = await buildUser(server, { creditRupees: 1 });
    const held = await message(owner, 'failed', false);
    const refused = await admin.post(`/api/admin/users/${other.id}/held-refunds/release`, { messageIds: [held] });
    expect(refused.status).toBe(422);
    expect(await isRefunded(held)).toBe(false);
    expect(await balanceOf(other)).toBe(10_000);
  });
});
