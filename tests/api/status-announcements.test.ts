/**
 * Status changes are announced (webhook events, notifications, progress) only once the
 * transaction that applied them has committed. The status-event queue applies events inside its
 * own transaction; announcing at the end of the inner savepoint let the webhook worker, on another
 * connection, read the message before the commit: a `message.failed` event carrying `sent`
 * (seen once under load on PostgreSQL). Both databases.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { StatusEvent } from '../../server/src/sending/providers/types';
import { buildCampaign, buildUser } from '../../server/test/factories';
import { pollUntil } from '../../server/test/integrators';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';

describe.skipIf(postgresUnavailable)('status announcements wait for the commit', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  interface Announced {
    statuses: { status: string; messageIds: readonly number[] }[];
    settled: number[];
    progressed: number[];
  }
  let restore: (() => void) | null = null;
  afterEach(() => {
    restore?.();
    restore = null;
  });

  /** Records what the outcomes announce, in place of the server's listeners (put back after each test). */
  function listen(): Announced {
    const outcomes = server.services.engine.outcomes;
    const saved = { statuses: outcomes.onMessageStatuses, settled: outcomes.onCampaignsSettled, progressed: outcomes.onCampaignsProgressed };
    const announced: Announced = { statuses: [], settled: [], progressed: [] };
    outcomes.onMessageStatuses = (changes) => announced.statuses.push(...changes.filter((c) => c.messageIds.length > 0));
    outcomes.onCampaignsSettled = (ids) => announced.settled.push(...ids);
    outcomes.onCampaignsProgressed = (ids) => announced.progressed.push(...ids);
    restore = () => {
      outcomes.onMessageStatuses = saved.statuses;
      outcomes.onCampaignsSettled = saved.settled;
      outcomes.onCampaignsProgressed = saved.progressed;
    };
    return announced;
  }

  async function sentCampaign() {
    const user = await buildUser(server, { creditRupees: 10 });
    const built = await buildCampaign(server, user, { messages: [{ status: 'sent' }] });
    const message = built.messages[0] as { id: number; providerMessageId: string };
    const failedEvent: StatusEvent = {
      providerMessageId: message.providerMessageId,
      phoneNumberId: null,
      status: 'failed',
      timestamp: new Date(),
      recipient: '',
      error: { code: 131026, title: 'Message undeliverable' },
    };
    return { campaignId: built.campaignId, messageId: message.id, failedEvent };
  }

  it('announces a failure applied inside an open transaction only after it commits, when others can read it', async () => {
    const { campaignId, messageId, failedEvent } = await sentCampaign();
    const announced = listen();
    const trx = await server.db.transaction();
    await server.services.engine.outcomes.applyStatusEvents([failedEvent], trx);
    // Still uncommitted: nothing announced yet (before the fix, all three were).
    expect(announced).toEqual({ statuses: [], settled: [], progressed: [] });
    await trx.commit();
    await pollUntil(async () => announced.settled.length, (n) => n > 0);
    expect(announced.statuses).toEqual([{ status: 'failed', messageIds: [messageId] }]);
    expect(announced.progressed).toEqual([campaignId]);
    expect(announced.settled).toEqual([campaignId]);
    const stored = (await server.db('messages').where({ id: messageId }).first('status', 'errorCode')) as { status: string; errorCode: number };
    expect(stored).toEqual({ status: 'failed', errorCode: 131026 });
    expect(((await server.db('campaigns').where({ id: campaignId }).first('status')) as { status: string }).status).toBe('completed');
  });

  it('announces nothing when the transaction rolls back', async () => {
    const { campaignId, messageId, failedEvent } = await sentCampaign();
    const announced = listen();
    const abandoned = new Error('abandoned after applying');
    await expect(
      server.db.transaction(async (trx) => {
        await server.services.engine.outcomes.applyStatusEvents([failedEvent], trx);
        throw abandoned;
      }),
    ).rejects.toBe(abandoned);
    // Let any callback chained on the outcome run before looking.
    await new Promise((resolve) => setImmediate(resolve));
    expect(announced).toEqual({ statuses: [], settled: [], progressed: [] });
    expect(((await server.db('messages').where({ id: messageId }).first('status')) as { status: string }).status).toBe('sent');
    expect(((await server.db('campaigns').where({ id: campaignId }).first('status')) as { status: string }).status).toBe('running');
  });

  it('a listener that throws after the commit neither undoes the write nor stops the other announcements', async () => {
    const { campaignId, messageId, failedEvent } = await sentCampaign();
    const announced = listen();
    server.services.engine.outcomes.onMessageStatuses = () => {
      throw new Error('listener broke');
    };
    await server.db.transaction(async (trx) => {
      await server.services.engine.outcomes.applyStatusEvents([failedEvent], trx);
    });
    await pollUntil(async () => announced.settled.length, (n) => n > 0);
    expect(announced.settled).toEqual([campaignId]);
    expect(((await server.db('messages').where({ id: messageId }).first('status')) as { status: string }).status).toBe('failed');
  });

  it('announces at once outside a transaction', async () => {
    const { campaignId, messageId, failedEvent } = await sentCampaign();
    const announced = listen();
    await server.services.engine.outcomes.applyStatusEvents([failedEvent]);
    expect(announced.statuses).toEqual([{ status: 'failed', messageIds: [messageId] }]);
    expect(announced.settled).toEqual([campaignId]);
  });

  it('a status batch that meets another instance in a deadlock runs again at once, and is announced once', async () => {
    // Seen in the loaded suite: two instances settling the same messages' events deadlocked, and
    // the batch waited for the next sweep with an error in the log.
    const { messageId, failedEvent } = await sentCampaign();
    const announced = listen();
    const ingest = server.services.engine.ingest;
    const outcomes = server.services.engine.outcomes;
    const apply = outcomes.applyStatusEvents.bind(outcomes);
    let calls = 0;
    // The first try applies its events, then loses to the other instance: its transaction rolls back.
    outcomes.applyStatusEvents = async (events, trx) => {
      calls += 1;
      const applied = await apply(events, trx);
      if (calls === 1) throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
      return applied;
    };
    await ingest.stop();
    try {
      await ingest.store([failedEvent]);
      expect(await ingest.flushOnce()).toBe(1);
    } finally {
      outcomes.applyStatusEvents = apply;
      ingest.start();
    }
    expect(calls).toBe(2);
    expect(((await server.db('messages').where({ id: messageId }).first('status')) as { status: string }).status).toBe('failed');
    expect(Number(((await server.db('status_events').where({ providerMessageId: failedEvent.providerMessageId }).count({ n: '*' })) as { n: number | string }[])[0]?.n)).toBe(0);
    await pollUntil(async () => announced.statuses.length, (n) => n > 0);
    expect(announced.statuses).toEqual([{ status: 'failed', messageIds: [messageId] }]);
  });

  it('the status-event queue announces what it applied after its own commit', async () => {
    const { messageId, failedEvent } = await sentCampaign();
    const seen: string[] = [];
    const announced = listen();
    server.services.engine.outcomes.onMessageStatuses = (changes) => {
      announced.statuses.push(...changes.filter((c) => c.messageIds.length > 0));
      // What a listener on its own connection reads at that moment.
      if (changes.some((c) => c.messageIds.includes(messageId))) {
        void server.db('messages').where({ id: messageId }).first('status').then((row: { status: string }) => seen.push(row.status));
      }
    };
    await server.services.engine.ingest.store([failedEvent]);
    await server.services.engine.ingest.drain();
    await pollUntil(async () => seen.length, (n) => n > 0);
    expect(seen).toEqual(['failed']);
  });
});
