/**
 * The per-day figures kept in `message_daily_totals` once message rows are deleted, and the reads
 * the dashboards, the admin usage and campaign totals add to what is still in `messages`.
 * Metric names:
 * - `status:<status>`: messages created that day that ended in that status (`cancelled` included:
 *   a cancel is its own status, no failure of delivery);
 * - `event:sent|delivered|read|failed`: status events by the day they happened;
 * - `campaign:billable`: billable less cancelled messages of a deleted campaign, on its creation day.
 */
import type { Knex } from 'knex';
import { istDay } from '../istCalendar';

export const TIMELINE_EVENTS = ['sent', 'delivered', 'read', 'failed'] as const;

/** The columns of a deleted message that its figures are made from. */
export interface DeletedMessage {
  userId: number;
  campaignId: number;
  status: string;
  errorCode: number | null;
  createdAt: string | Date;
  sentAt: string | Date | null;
  deliveredAt: string | Date | null;
  readAt: string | Date | null;
  failedAt: string | Date | null;
}

export interface DailyTotal {
  userId: number;
  campaignId: number;
  day: string;
  metric: string;
  count: number;
}


/** Adds up deleted messages into daily totals. */
export function totalsOf(rows: readonly DeletedMessage[]): DailyTotal[] {
  const totals = new Map<string, DailyTotal>();
  const add = (row: DeletedMessage, day: string, metric: string, count = 1) => {
    const key = `${row.campaignId}|${day}|${metric}`;
    const total = totals.get(key);
    if (total) total.count += count;
    else totals.set(key, { userId: Number(row.userId), campaignId: Number(row.campaignId), day, metric, count });
  };
  for (const row of rows) {
    const createdDay = istDay(row.createdAt);
    add(row, createdDay, `status:${row.status}`);
    if (row.sentAt) add(row, istDay(row.sentAt), 'event:sent');
    if (row.deliveredAt) add(row, istDay(row.deliveredAt), 'event:delivered');
    if (row.readAt) add(row, istDay(row.readAt), 'event:read');
    if (row.failedAt) add(row, istDay(row.failedAt), 'event:failed');
  }
  return [...totals.values()];
}

/** Adds totals to the stored ones (inside the caller's transaction). */
export async function addDailyTotals(db: Knex, totals: readonly DailyTotal[]): Promise<void> {
  for (let i = 0; i < totals.length; i += 200) {
    await db('message_daily_totals')
      .insert(totals.slice(i, i + 200))
      .onConflict(['campaign_id', 'day', 'metric'])
      .merge({ count: db.raw('message_daily_totals.count + excluded.count') });
  }
}

/** Reads of the kept figures, one per figure that would otherwise lose its deleted history. */
export class DailyTotalsReader {
  constructor(private readonly db: Knex) {}

  /** `status:*` counts of the given campaigns' deleted messages, by campaign and status. */
  async campaignStatusCounts(campaignIds: readonly number[]): Promise<Map<number, Map<string, number>>> {
    const result = new Map<number, Map<string, number>>();
    if (campaignIds.length === 0) return result;
    const rows = (await this.db('message_daily_totals')
      .whereIn('campaignId', campaignIds)
      .where('metric', 'like', 'status:%')
      .groupBy('campaignId', 'metric')
      .select('campaignId', 'metric')
      .sum({ n: 'count' })) as { campaignId: number | string; metric: string; n: number | string }[];
    for (const row of rows) {
      const byStatus = result.get(Number(row.campaignId)) ?? new Map<string, number>();
      byStatus.set(row.metric.slice('status:'.length), Number(row.n));
      result.set(Number(row.campaignId), byStatus);
    }
    return result;
  }

  /** A user's kept counts per metric over Indian days [fromDay, toDay]. */
  async userMetrics(userId: number, fromDay: string, toDay = '9999-12-31'): Promise<Map<string, number>> {
    const rows = (await this.db('message_daily_totals')
      .where({ userId })
      .whereBetween('day', [fromDay, toDay])
      .groupBy('metric')
      .select('metric')
      .sum({ n: 'count' })) as { metric: string; n: number | string }[];
    return new Map(rows.map((row) => [row.metric, Number(row.n)]));
  }

  /** A user's kept `event:*` counts by day over Indian days [fromDay, toDay]. */
  async userEventsByDay(userId: number, fromDay: string, toDay: string): Promise<{ day: string; event: string; n: number }[]> {
    const rows = (await this.db('message_daily_totals')
      .where({ userId })
      .whereBetween('day', [fromDay, toDay])
      .where('metric', 'like', 'event:%')
      .groupBy('day', 'metric')
      .select('day', 'metric')
      .sum({ n: 'count' })) as { day: string; metric: string; n: number | string }[];
    return rows.map((row) => ({ day: row.day, event: row.metric.slice('event:'.length), n: Number(row.n) }));
  }

  /** Billable messages of deleted campaigns, every user, created on Indian days [fromDay, toDay]. */
  async deletedCampaignsBillable(fromDay: string, toDay = '9999-12-31'): Promise<number> {
    const row = (await this.db('message_daily_totals').where({ metric: 'campaign:billable' }).whereBetween('day', [fromDay, toDay]).sum({ n: 'count' }).first()) as
      | { n: number | string | null }
      | undefined;
    return Number(row?.n ?? 0);
  }
}
