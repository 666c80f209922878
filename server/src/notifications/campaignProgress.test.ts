import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TCampaign } from '@shared/schemas/sending';
import { emptyCounts } from '../sending/campaigns';
import { CampaignProgressFeed, type CampaignProgressSource } from './campaignProgress';
import type { Logger } from '../logger';

const silent = { warn: () => undefined } as unknown as Logger;

function campaign(id: number, processed: number): TCampaign {
  return {
    id,
    name: `Campaign ${id}`,
    status: 'running',
    source: 'quick',
    templateName: 't',
    language: 'en_US',
    category: 'MARKETING',
    totalRecipients: 100,
    billable: 100,
    invalid: 0,
    counts: { ...emptyCounts(), sent: processed, queued: 100 - processed },
    processed,
    pricePerMessage: 0.8,
    totalCost: 80,
    refunded: 0,
    createdAt: '2026-11-25T10:00:00.000Z',
    completedAt: null,
    scheduledAt: null,
    failureReason: null,
  };
}

/** A source whose campaign 1 (owned by user 7) has processed whatever `state.processed` says. */
function fakeSource(state: { processed: number }) {
  const source = {
    ownerOf: vi.fn(async (id: number) => (id === 1 ? 7 : id === 2 ? 8 : null)),
    progress: vi.fn(async (id: number) => campaign(id, state.processed)),
    followed: vi.fn(async () => [1]),
  } satisfies CampaignProgressSource;
  return source;
}

/** Lets the feed's awaited reads settle. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}

describe('CampaignProgressFeed', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reads nothing while no stream of the owner listens on this instance', async () => {
    const source = fakeSource({ processed: 1 });
    const feed = new CampaignProgressFeed({ source, log: silent, throttleMs: 500, messagesPerSecond: 20_000, maxIntervalMs: 10_000, followMs: 120_000, followLimit: 10 });
    feed.signal([1]);
    await settle();
    expect(source.ownerOf).not.toHaveBeenCalled();
    // A listener of another user: the owner is looked up (once), the counts are not read.
    feed.subscribe(8, () => undefined);
    feed.signal([1]);
    await settle();
    vi.advanceTimersByTime(1_000);
    feed.signal([1]);
    await settle();
    expect(source.ownerOf).toHaveBeenCalledTimes(1);
    expect(source.progress).not.toHaveBeenCalled();
  });

  it('pushes at most once per throttle period per campaign, and always the last state', async () => {
    const state = { processed: 1 };
    const source = fakeSource(state);
    const feed = new CampaignProgressFeed({ source, log: silent, throttleMs: 500, messagesPerSecond: 20_000, maxIntervalMs: 10_000, followMs: 120_000, followLimit: 10 });
    const seen: number[] = [];
    const unsubscribe = feed.subscribe(7, (c) => seen.push(c.processed));
    feed.signal([1]);
    await settle();
    expect(seen).toEqual([1]);
    // A burst inside the period: one trailing push with the state at its end.
    for (const processed of [2, 3, 4]) {
      state.processed = processed;
      feed.signal([1, 1]);
      await settle();
    }
    expect(seen).toEqual([1]);
    await vi.advanceTimersByTimeAsync(500);
    expect(seen).toEqual([1, 4]);
    expect(source.progress).toHaveBeenCalledTimes(2);
    // Quiet for a period: the next signal pushes at once.
    await vi.advanceTimersByTimeAsync(600);
    state.processed = 10;
    feed.signal([1]);
    await settle();
    expect(seen).toEqual([1, 4, 10]);
    unsubscribe();
    feed.signal([1]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(seen).toEqual([1, 4, 10]);
  });

  it('answers the followed campaigns for a stream catching up, oldest first', async () => {
    const source = fakeSource({ processed: 5 });
    source.followed.mockResolvedValueOnce([3, 1]);
    const feed = new CampaignProgressFeed({ source, log: silent, throttleMs: 500, messagesPerSecond: 20_000, maxIntervalMs: 10_000, followMs: 120_000, followLimit: 10 });
    expect((await feed.followedBy(7)).map((c) => c.id)).toEqual([1, 3]);
    expect(source.followed).toHaveBeenCalledWith(7, 120_000, 10);
  });

  it('spaces the pushes of a large campaign by its size, up to the longest interval', async () => {
    const state = { processed: 0 };
    const source = fakeSource(state);
    source.progress.mockImplementation(async (id: number) => ({ ...campaign(id, state.processed), billable: 100_000 }));
    const feed = new CampaignProgressFeed({ source, log: silent, throttleMs: 500, messagesPerSecond: 20_000, maxIntervalMs: 10_000, followMs: 120_000, followLimit: 10 });
    const seen: number[] = [];
    feed.subscribe(7, (c) => seen.push(c.processed));
    feed.signal([1]);
    await settle();
    state.processed = 50;
    feed.signal([1]);
    // 100,000 messages: five seconds apart.
    await vi.advanceTimersByTimeAsync(4_900);
    expect(seen).toEqual([0]);
    await vi.advanceTimersByTimeAsync(200);
    expect(seen).toEqual([0, 50]);
    // A heartbeat skips what this instance pushed within its period, and reads the rest.
    expect(await feed.followedBy(7, 15_000)).toEqual([]);
    expect((await feed.followedBy(7)).map((c) => c.id)).toEqual([1]);
  });
});
