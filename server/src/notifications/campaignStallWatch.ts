/**
 * Running campaigns that stopped moving: when a campaign still has messages waiting and
 * none of them has finished for `stallAfterMs`, its owner is warned once (a dedupe key per
 * campaign), so a send stuck behind a dead provider or a stopped dispatcher does not go unseen.
 *
 * Cheap by construction: campaigns this instance saw move since the last look are not read at
 * all; the others cost one grouped count on the (campaign_id, status) index. A campaign moves when
 * this instance records a result of it, or when its number of unfinished messages changed between
 * two looks (another instance sent some). Each instance watches on its own; the dedupe key makes
 * their warnings one.
 */
import type { Knex } from 'knex';
import type { Logger } from '../logger';
import { OutageLog } from '../db/outage';
import { UNFINISHED_STATUSES } from '../db/rows/messages';

interface Seen {
  /** Unfinished messages when last counted (null: not counted yet). */
  unfinished: number | null;
  /** When the campaign was last seen to move. */
  movedAt: number;
}

export interface StalledCampaign {
  id: number;
  userId: number;
  name: string;
  waiting: number;
  stalledMs: number;
}

export class CampaignStallWatch {
  private readonly seen = new Map<number, Seen>();
  private timer: NodeJS.Timeout | null = null;
  private checking: Promise<StalledCampaign[]> | null = null;
  private lastLookAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly deps: {
      db: Knex;
      log: Logger;
      stallAfterMs: number;
      checkEveryMs: number;
      onStalled: (campaign: StalledCampaign) => Promise<void>;
      now?: () => number;
    },
  ) {}

  private now(): number {
    return this.deps.now?.() ?? Date.now();
  }

  start(): void {
    if (this.timer) return;
    const failures = new OutageLog(this.deps.log, 'the campaign stall check');
    this.timer = setInterval(() => void failures.tick(() => this.check()), this.deps.checkEveryMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.checking?.catch(() => undefined);
  }

  /** Messages of these campaigns just moved on this instance (no need to count them). */
  noteProgress(campaignIds: readonly number[]): void {
    const now = this.now();
    for (const id of campaignIds) {
      const seen = this.seen.get(id);
      if (seen) {
        seen.movedAt = now;
        seen.unfinished = null;
      }
    }
  }

  /** One look at every running campaign; answers those found stalled (each is warned once). */
  check(): Promise<StalledCampaign[]> {
    this.checking ??= this.look().finally(() => {
      this.checking = null;
    });
    return this.checking;
  }

  private async look(): Promise<StalledCampaign[]> {
    const now = this.now();
    const previousLook = this.lastLookAt;
    this.lastLookAt = now;
    const running = (await this.deps.db('campaigns').where({ status: 'running' }).select('id', 'userId', 'name')) as { id: number | string; userId: number | string; name: string }[];
    const runningIds = new Set(running.map((c) => Number(c.id)));
    // Paused, cancelled, completed or deleted: forgotten (a resumed campaign starts afresh).
    for (const id of this.seen.keys()) if (!runningIds.has(id)) this.seen.delete(id);

    const toCount: number[] = [];
    for (const campaign of running) {
      const id = Number(campaign.id);
      const seen = this.seen.get(id);
      if (!seen) this.seen.set(id, { unfinished: null, movedAt: now });
      // Seen moving on this instance since the last look: no need to count it.
      else if (seen.unfinished === null && seen.movedAt > previousLook) continue;
      toCount.push(id);
    }
    const unfinished = await this.countUnfinished(toCount);
    const stalled: StalledCampaign[] = [];
    for (const campaign of running) {
      const id = Number(campaign.id);
      const seen = this.seen.get(id);
      const waiting = unfinished.get(id);
      if (!seen || waiting === undefined) continue;
      if (seen.unfinished === null) {
        // A first count to compare the next ones with.
        seen.unfinished = waiting;
        continue;
      }
      if (seen.unfinished !== waiting) {
        // Another instance sent some since the last look: it moves.
        seen.unfinished = waiting;
        seen.movedAt = now;
        continue;
      }
      if (waiting > 0 && now - seen.movedAt >= this.deps.stallAfterMs) {
        stalled.push({ id, userId: Number(campaign.userId), name: campaign.name, waiting, stalledMs: now - seen.movedAt });
      }
    }
    for (const campaign of stalled) await this.deps.onStalled(campaign);
    return stalled;
  }

  /** Unfinished messages per campaign, in one grouped query on the (campaign_id, status) index. */
  private async countUnfinished(campaignIds: readonly number[]): Promise<Map<number, number>> {
    const counts = new Map<number, number>(campaignIds.map((id) => [id, 0]));
    for (let start = 0; start < campaignIds.length; start += 500) {
      const rows = (await this.deps.db('messages')
        .whereIn('campaignId', campaignIds.slice(start, start + 500))
        .whereIn('status', UNFINISHED_STATUSES)
        .groupBy('campaignId')
        .select('campaignId')
        .count({ n: '*' })) as { campaignId: number | string; n: number | string }[];
      for (const row of rows) counts.set(Number(row.campaignId), Number(row.n));
    }
    return counts;
  }
}
