/**
 * The handoff fence with a stale claim and the current claim of one message waiting in the same
 * round on one instance. A worker whose claim lapsed before its send (its lease ran out while it
 * waited for the number's rate), and the worker that claimed the message again, can ask for the
 * handoff at the same moment. Only the claim the row carries may send.
 *
 * Found under load in the three-instances test (2026-11-28): the round answered by message id, so
 * the stale worker was told "yours" too and sent the message a second time under its old
 * reference, whose status webhook then settled nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Handoff } from '../../server/src/sending/handoff';
import { buildCampaign, buildUser } from '../../server/test/factories';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';

const STALE_TOKEN = '0a0a0a0a0a0a0a0a';
const CURRENT_TOKEN = '0b0b0b0b0b0b0b0b';
const OTHER_TOKEN = '0c0c0c0c0c0c0c0c';

describe.skipIf(postgresUnavailable)('a stale claim never passes the handoff', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ DISPATCH_ENABLED: 'false' });
  });
  afterAll(async () => {
    await server?.close();
  });

  /** Messages `sending` under a claim of a running campaign, never handed. */
  async function claimedMessages(count: number): Promise<number[]> {
    const user = await buildUser(server, { creditRupees: 10 });
    const built = await buildCampaign(server, user, {
      status: 'running',
      messages: Array.from({ length: count }, (_, index) => ({ status: 'sending' as const, recipient: `91981230${String(index).padStart(4, '0')}5` })),
    });
    return built.messages.map((message) => message.id);
  }

  async function claim(id: number, claimToken: string): Promise<void> {
    await server.db('messages').where({ id }).update({ claimToken, handedAt: null, leaseUntil: new Date(Date.now() + 60_000).toISOString() });
  }

  it('answers each waiting claim by its own token: the current one is handed, the stale one is not', async () => {
    const [busy, contested] = (await claimedMessages(2)) as [number, number];
    await claim(busy, OTHER_TOKEN);
    await claim(contested, CURRENT_TOKEN);
    const handoff = new Handoff(server.db, server.services.engine.dispatchStore, 60);
    // The first handoff starts a round and waits on the database; the two asked for meanwhile
    // share the next round, as the stale and the current worker did.
    const first = handoff.handOver(busy, OTHER_TOKEN);
    const fromStale = handoff.handOver(contested, STALE_TOKEN);
    const fromCurrent = handoff.handOver(contested, CURRENT_TOKEN);
    expect(await Promise.all([first, fromStale, fromCurrent])).toEqual([true, false, true]);

    const row = (await server.db('messages').where({ id: contested }).first('claimToken', 'handedAt', 'status')) as { claimToken: string; handedAt: unknown; status: string };
    expect(row).toMatchObject({ claimToken: CURRENT_TOKEN, status: 'sending' });
    expect(row.handedAt).not.toBeNull();
  });

  it('hands nothing to a stale claim alone, and a message only once', async () => {
    const [id] = (await claimedMessages(1)) as [number];
    await claim(id, CURRENT_TOKEN);
    const handoff = new Handoff(server.db, server.services.engine.dispatchStore, 60);
    expect(await handoff.handOver(id, STALE_TOKEN)).toBe(false);
    expect(await handoff.handOver(id, CURRENT_TOKEN)).toBe(true);
    // Handed already: the same claim asking again (a retried round) is not handed twice.
    expect(await handoff.handOver(id, CURRENT_TOKEN)).toBe(false);
  });

  it('restarts the lease at the handoff: a send that waited for its turn is not taken for a stall', async () => {
    const [id] = (await claimedMessages(1)) as [number];
    // Claimed long ago: the lease is nearly out when the send's turn comes.
    await server.db('messages').where({ id }).update({ claimToken: CURRENT_TOKEN, handedAt: null, leaseUntil: new Date(Date.now() + 1_000).toISOString() });
    const before = Date.now();
    expect(await new Handoff(server.db, server.services.engine.dispatchStore, 60).handOver(id, CURRENT_TOKEN)).toBe(true);
    const row = (await server.db('messages').where({ id }).first('leaseUntil')) as { leaseUntil: string | Date };
    expect(new Date(row.leaseUntil).getTime()).toBeGreaterThanOrEqual(before + 59_000);
  });

  it('renews in one call the rows that still carry their batch token, handed or moved to unknown, and no other', async () => {
    const [mine, handed, unknown, taken, answered] = (await claimedMessages(5)) as [number, number, number, number, number];
    const old = new Date(Date.now() + 1_000).toISOString();
    await server.db('messages').whereIn('id', [mine, handed, unknown, answered]).update({ claimToken: CURRENT_TOKEN, leaseUntil: old });
    await server.db('messages').where({ id: handed }).update({ handedAt: new Date().toISOString() });
    await server.db('messages').where({ id: unknown }).update({ status: 'unknown' });
    await server.db('messages').where({ id: answered }).update({ status: 'sent' });
    // Claimed again by another worker after this batch's lease lapsed.
    await server.db('messages').where({ id: taken }).update({ claimToken: OTHER_TOKEN, leaseUntil: old });

    const leaseUntil = new Date(Date.now() + 60_000);
    await server.services.engine.dispatchStore.renewLeases(server.db, [{ claimToken: CURRENT_TOKEN, ids: [mine, handed, unknown, answered] }, { claimToken: STALE_TOKEN, ids: [taken] }], leaseUntil);
    const rows = (await server.db('messages').whereIn('id', [mine, handed, unknown, taken, answered]).select('id', 'leaseUntil')) as { id: number; leaseUntil: string | Date }[];
    const renewed = rows.filter((row) => new Date(row.leaseUntil).getTime() === leaseUntil.getTime()).map((row) => Number(row.id));
    expect(renewed.sort((x, y) => x - y)).toEqual([mine, handed, unknown].sort((x, y) => x - y));
  });
});
