/**
 * Live campaign progress on the notification stream: the send dialogs follow their
 * campaign from `campaign_progress` events instead of asking every second and a half.
 *
 * Progress is not kept as notifications. The instance whose dispatcher or status ingestion moved a
 * campaign's messages pushes its counts to the owner's streams on that instance, at most once per
 * `throttleMs` per campaign and always with the last state (a trailing push); streams on other
 * instances read the campaigns their user follows at each heartbeat. Nothing is read while no
 * stream on this instance belongs to the campaign's owner, so the sending hot path pays a map
 * lookup per result batch.
 */
import { EventEmitter } from 'node:events';
import type { TCampaign } from '@shared/schemas/sending';
import type { Logger } from '../logger';

/** Where the feed reads campaigns (the campaign service). */
export interface CampaignProgressSource {
  ownerOf(campaignId: number): Promise<number | null>;
  progress(campaignId: number): Promise<TCampaign | null>;
  followed(userId: number, followMs: number, limit: number): Promise<number[]>;
}

interface Pace {
  lastAt: number;
  /** This campaign's interval: longer for a large one (see `intervalFor`). */
  intervalMs: number;
  timer: NodeJS.Timeout | null;
  loading: boolean;
  /** Signalled while loading: push again once the throttle allows. */
  again: boolean;
}

/** Owners are remembered (a campaign never changes hands); beyond this many the oldest go. */
const OWNER_CACHE = 5_000;
/** Pacing entries of idle campaigns are dropped once there are more than this. */
const PACE_PRUNE_ABOVE = 500;

export class CampaignProgressFeed {
  private readonly hub = new EventEmitter();
  private readonly owners = new Map<number, number>();
  private readonly pace = new Map<number, Pace>();

  constructor(
    private readonly deps: {
      source: CampaignProgressSource;
      log: Logger;
      /** The shortest interval between two pushes of one campaign. */
      throttleMs: number;
      /** The interval grows by a second per this many messages (reading the counts costs that)... */
      messagesPerSecond: number;
      /** ...up to this. */
      maxIntervalMs: number;
      /** Finished campaigns are followed this long after they end (their delivery reports arrive). */
      followMs: number;
      /** Campaigns a stream catches up on at most. */
      followLimit: number;
      now?: () => number;
    },
  ) {
    // One listener per open tab.
    this.hub.setMaxListeners(0);
  }

  private now(): number {
    return this.deps.now?.() ?? Date.now();
  }

  /** Calls `listener` with the progress of each of the user's campaigns that moves on this instance. */
  subscribe(userId: number, listener: (campaign: TCampaign) => void): () => void {
    const event = `user:${userId}`;
    this.hub.on(event, listener);
    return () => this.hub.off(event, listener);
  }

  /** Campaigns whose messages just moved. Never throws and never waits. */
  signal(campaignIds: readonly number[]): void {
    if (this.hub.eventNames().length === 0) return;
    if (this.pace.size > PACE_PRUNE_ABOVE) this.prune();
    for (const id of new Set(campaignIds)) this.schedule(id);
  }

  /**
   * The current progress of the campaigns a user follows, oldest first: for a stream connecting,
   * and at its heartbeat, where `skipPushedWithinMs` leaves out campaigns pushed on this instance
   * that recently (the stream had them then; only other instances' progress needs reading).
   */
  async followedBy(userId: number, skipPushedWithinMs = 0): Promise<TCampaign[]> {
    const ids = await this.deps.source.followed(userId, this.deps.followMs, this.deps.followLimit);
    const since = this.now() - skipPushedWithinMs;
    const stale = ids.filter((id) => !(skipPushedWithinMs > 0 && (this.pace.get(id)?.lastAt ?? Number.NEGATIVE_INFINITY) >= since));
    const campaigns = await Promise.all(stale.map((id) => this.deps.source.progress(id)));
    return campaigns.filter((campaign): campaign is TCampaign => campaign !== null).reverse();
  }

  /** Pushes of a campaign are spaced by its size: its count costs in proportion to its messages. */
  private intervalFor(campaign: TCampaign): number {
    const bySize = (campaign.billable / this.deps.messagesPerSecond) * 1000;
    return Math.round(Math.min(this.deps.maxIntervalMs, Math.max(this.deps.throttleMs, bySize)));
  }

  private schedule(campaignId: number): void {
    let pace = this.pace.get(campaignId);
    if (!pace) {
      pace = { lastAt: Number.NEGATIVE_INFINITY, intervalMs: this.deps.throttleMs, timer: null, loading: false, again: false };
      this.pace.set(campaignId, pace);
    }
    if (pace.timer) return;
    if (pace.loading) {
      pace.again = true;
      return;
    }
    const wait = pace.lastAt + pace.intervalMs - this.now();
    if (wait <= 0) {
      void this.push(campaignId, pace);
      return;
    }
    const current = pace;
    current.timer = setTimeout(() => {
      current.timer = null;
      void this.push(campaignId, current);
    }, wait);
    current.timer.unref();
  }

  private async push(campaignId: number, pace: Pace): Promise<void> {
    pace.loading = true;
    pace.lastAt = this.now();
    try {
      const owner = await this.ownerOf(campaignId);
      const event = `user:${owner}`;
      if (owner !== null && this.hub.listenerCount(event) > 0) {
        const campaign = await this.deps.source.progress(campaignId);
        if (campaign) {
          pace.intervalMs = this.intervalFor(campaign);
          this.hub.emit(event, campaign);
        }
      }
    } catch (error) {
      this.deps.log.warn({ err: error, campaignId }, 'campaign progress not pushed');
    } finally {
      pace.loading = false;
      if (pace.again) {
        pace.again = false;
        this.schedule(campaignId);
      }
    }
  }

  private async ownerOf(campaignId: number): Promise<number | null> {
    const known = this.owners.get(campaignId);
    if (known !== undefined) return known;
    const owner = await this.deps.source.ownerOf(campaignId);
    if (owner === null) return null;
    this.owners.set(campaignId, owner);
    if (this.owners.size > OWNER_CACHE) this.owners.delete(this.owners.keys().next().value as number);
    return owner;
  }

  private prune(): void {
    const idleBefore = this.now() - this.deps.maxIntervalMs;
    for (const [id, pace] of this.pace) if (!pace.timer && !pace.loading && pace.lastAt < idleBefore) this.pace.delete(id);
  }
}
