/**
 * A campaign's "completed" notice tells what is true when it is read. A campaign completes when its
 * last message leaves the queue; its delivery reports, later failures and their refunds arrive
 * afterwards. A notice composed at completion said "0 delivered, 0 read, 0 failed. Refunded ₹0.00"
 * of a campaign that went on to 4 delivered, 4 read, 1 failed and ₹0.80 refunded. Both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillMessage, messages } from '@shared/messages';
import type { TNotification, TNotificationList } from '@shared/schemas/notifications';
import type { StatusEvent } from '../../server/src/sending/providers/types';
import { buildCampaign, signedInClient } from '../../server/test/factories';
import { pollUntil } from '../../server/test/polling';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';

const text = messages.notifications;

describe.skipIf(postgresUnavailable)('campaign notices read live', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  const event = (providerMessageId: string, status: StatusEvent['status'], error?: StatusEvent['error']): StatusEvent => ({
    providerMessageId,
    phoneNumberId: null,
    status,
    timestamp: new Date(),
    recipient: '',
    ...(error ? { error } : {}),
  });

  it('states the counts and refund that arrived after the campaign completed, when the notice is read', async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 10 });
    const built = await buildCampaign(server, user, { name: 'Diwali blast test', messages: Array.from({ length: 5 }, () => ({ status: 'sent' as const })) });
    const ids = built.messages.map((message) => message.providerMessageId as string);

    // Every message left the queue: the campaign completes and its owner is told, before any report.
    await server.services.engine.outcomes.completeCampaigns([built.campaignId]);
    const notice = async (): Promise<TNotification | undefined> =>
      (await client.get<TNotificationList>('/api/notifications')).body.notifications.find((n) => n.kind === 'campaign_completed');
    const first = await pollUntil(notice, (n) => n !== undefined, { what: 'the completion notice' });
    expect(first!.message).toBe(fillMessage(text.campaignCompleted, { name: 'Diwali blast test', delivered: '0', read: '0', failed: '0', refund: '₹0.00' }));

    // The reports come afterwards: four delivered and read, one failed (its price refunded).
    const outcomes = server.services.engine.outcomes;
    await outcomes.applyStatusEvents(ids.slice(0, 4).map((id) => event(id, 'delivered')));
    await outcomes.applyStatusEvents(ids.slice(0, 4).map((id) => event(id, 'read')));
    await outcomes.applyStatusEvents([event(ids[4]!, 'failed', { code: 131026, title: 'Message undeliverable' })]);

    const truthful = fillMessage(text.campaignCompleted, { name: 'Diwali blast test', delivered: '4', read: '4', failed: '1', refund: '₹0.80' });
    const read = await pollUntil(notice, (n) => n?.message === truthful, { what: 'the notice to state the final counts' });
    expect(read).toMatchObject({ type: 'warning', title: text.campaignCompletedTitle });
    // Still one notice, and the stream catching up reads the same text.
    expect((await client.get<TNotificationList>('/api/notifications')).body.notifications.filter((n) => n.kind === 'campaign_completed')).toHaveLength(1);
    const caughtUp = await server.services.notifications.since(user.id, 0);
    expect(caughtUp.find((n) => n.kind === 'campaign_completed')?.message).toBe(truthful);
  }, 60_000);
});
