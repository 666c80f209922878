/**
 * When a sending campaign is looked at for completion. Every result write used to read
 * the campaign's open messages afterwards: one statement per twenty sends, the most frequent read
 * of a large send on PostgreSQL. An instance now looks once none of its batches holds a message of
 * the campaign. These tests hold batches open with a provider that answers when told, on one
 * instance and on two, and check that the campaign completes exactly when its last message is
 * written, whichever batch or instance writes last.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../server/src/logger';
import { MessageDispatcher, type DispatchSettings } from '../../server/src/sending/dispatcher';
import { newClaimToken, toClaimed, type ClaimedMessage } from '../../server/src/sending/claims';
import type { SendResult, TemplateSendRequest, WhatsAppProvider } from '../../server/src/sending/providers/types';
import { buildCampaign, buildTemplate, buildUser } from '../../server/test/factories';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';

const SETTINGS: DispatchSettings = { batchSize: 50, workers: 2, concurrency: 8, maxAttempts: 3, leaseSeconds: 60, unknownSettleSeconds: 600, sendTimeoutSeconds: 15 };
/** The statement that looks for a campaign's open messages (MessageOutcomes.completeCampaigns). */
const COMPLETION_READ = /from\s+"?`?campaigns"?`?\s+where[\s\S]*not exists[\s\S]*messages/i;

/** A provider whose sends wait until the test answers them, by recipient. */
class AnsweringProvider {
  private readonly waiting = new Map<string, () => void>();
  private readonly arrived = new Set<string>();
  readonly kind = 'cloud_api' as const;

  sendTemplate(request: TemplateSendRequest): Promise<SendResult> {
    this.arrived.add(request.to);
    return new Promise((resolve) => this.waiting.set(request.to, () => resolve({ ok: true, providerMessageId: `wamid.${request.to}` })));
  }

  /** Answers a recipient's send once it has arrived. */
  async answer(recipient: string): Promise<void> {
    await expect.poll(() => this.arrived.has(recipient), { timeout: 10_000 }).toBe(true);
    this.waiting.get(recipient)?.();
  }
}

describe.skipIf(postgresUnavailable)('a campaign is looked at for completion once its last batch on an instance ends', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ DISPATCH_ENABLED: 'false' });
  });
  afterAll(async () => {
    await server?.close();
  });

  /** A dispatcher of its own (another instance, as far as the campaign can tell) sending through `provider`. */
  function instance(provider: AnsweringProvider): MessageDispatcher {
    return new MessageDispatcher({
      db: server.db,
      store: server.services.engine.dispatchStore,
      outcomes: server.services.engine.outcomes,
      jobs: server.services.engine.jobs,
      providers: { prepare: async () => {}, providerFor: () => provider as unknown as WhatsAppProvider },
      log: createLogger(server.config),
      settings: SETTINGS,
      mediaUrl: (path) => path,
    });
  }

  /** A running campaign of `count` queued messages, claimed as batches of the given sizes. */
  async function claimedBatches(sizes: number[]): Promise<{ campaignId: number; batches: ClaimedMessage[][] }> {
    const user = await buildUser(server, { creditRupees: 100 });
    const template = await buildTemplate(server, user, { body: 'Your order ships today' });
    const count = sizes.reduce((sum, size) => sum + size, 0);
    const built = await buildCampaign(server, user, { template, status: 'running', messages: Array.from({ length: count }, () => ({ status: 'queued' as const })) });
    const batches: ClaimedMessage[][] = [];
    let next = 0;
    for (const size of sizes) {
      const ids = built.messages.slice(next, next + size).map((message) => message.id);
      next += size;
      const claimToken = newClaimToken();
      await server.db('messages').whereIn('id', ids).update({ status: 'sending', claimToken, leaseUntil: new Date(Date.now() + 60_000).toISOString() });
      const rows = (await server.db('messages').whereIn('id', ids).orderBy('id').select('id', 'campaignId', 'recipient', 'variables', 'attempts', 'claimToken')) as Record<string, unknown>[];
      batches.push(rows.map(toClaimed));
    }
    return { campaignId: built.campaignId, batches };
  }

  async function campaignStatus(campaignId: number): Promise<string> {
    return ((await server.db('campaigns').where({ id: campaignId }).first('status')) as { status: string }).status;
  }

  /** Counts the completion reads of `campaignId` made while `run` runs. */
  async function countingCompletionReads<T>(campaignId: number, run: (reads: () => number) => Promise<T>): Promise<T> {
    let reads = 0;
    const record = (query: { sql: string; bindings?: readonly unknown[] }) => {
      if (COMPLETION_READ.test(query.sql) && (query.bindings ?? []).some((value) => Number(value) === campaignId)) reads += 1;
    };
    server.db.on('query', record);
    try {
      return await run(() => reads);
    } finally {
      server.db.off('query', record);
    }
  }

  it('does not look while another batch of the instance holds a message, and completes after the last', async () => {
    const { campaignId, batches } = await claimedBatches([2, 2]);
    const [first, second] = batches as [ClaimedMessage[], ClaimedMessage[]];
    const provider = new AnsweringProvider();
    const dispatcher = instance(provider);
    await countingCompletionReads(campaignId, async (reads) => {
      const firstDone = dispatcher.dispatch(first);
      const secondDone = dispatcher.dispatch(second);
      for (const message of [...first, ...(second.slice(0, 1) as ClaimedMessage[])]) await provider.answer(message.recipient);
      expect(await firstDone).toMatchObject({ sent: 2 });
      // Three of four written, the fourth still out: the instance knows, and reads nothing.
      expect(reads()).toBe(0);
      expect(await campaignStatus(campaignId)).toBe('running');
      await provider.answer((second[1] as ClaimedMessage).recipient);
      expect(await secondDone).toMatchObject({ sent: 2 });
      expect(reads()).toBe(1);
    });
    expect(await campaignStatus(campaignId)).toBe('completed');
  });

  it('completes the campaign whichever of two instances writes its last message', async () => {
    for (const lastToEnd of ['a', 'b'] as const) {
      const { campaignId, batches } = await claimedBatches([3, 3]);
      const [ofA, ofB] = batches as [ClaimedMessage[], ClaimedMessage[]];
      const providers = { a: new AnsweringProvider(), b: new AnsweringProvider() };
      const a = instance(providers.a);
      const b = instance(providers.b);
      const done = { a: a.dispatch(ofA), b: b.dispatch(ofB) };
      const firstToEnd = lastToEnd === 'a' ? 'b' : 'a';
      const messagesOf = { a: ofA, b: ofB };
      for (const message of messagesOf[firstToEnd]) await providers[firstToEnd].answer(message.recipient);
      await done[firstToEnd];
      // The first instance to end looked, and found the other's messages still out.
      expect(await campaignStatus(campaignId)).toBe('running');
      for (const message of messagesOf[lastToEnd]) await providers[lastToEnd].answer(message.recipient);
      await done[lastToEnd];
      expect(await campaignStatus(campaignId)).toBe('completed');
      const statuses = (await server.db('messages').where({ campaignId }).select('status')) as { status: string }[];
      expect(statuses.map((row) => row.status)).toEqual(Array.from({ length: 6 }, () => 'sent'));
    }
  });
});
