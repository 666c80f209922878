/**
 * What we charged beside what Meta says it billed, per account per Indian day: messages we charged
 * by our category (the campaign's template category, charged and not refunded), messages Meta
 * reported as billable by its category (the `pricing` of their status webhooks), the ones whose
 * categories differ, the ones Meta did not bill (`billable: false`), and those with no pricing
 * from Meta yet. See docs/reports.md and docs/decisions/2026-12-07-number-health-and-meta-billing.md.
 */
import type { Knex } from 'knex';
import { istDaySql } from '../db/dialect';
import { istDayStart } from '../istCalendar';

const DAY_MS = 86_400_000;
/** The longest range one call reads (a quarter), so a request cannot scan years of messages. */
export const RECONCILIATION_MAX_DAYS = 92;

export interface ReconciliationDay {
  userId: number;
  email: string;
  /** The Indian day, YYYY-MM-DD. */
  day: string;
  /** Messages we charged, by our category (upper case). */
  charged: Record<string, number>;
  /** Messages Meta billed, by Meta's category (upper case). */
  billedByMeta: Record<string, number>;
  /** Charged messages Meta billed in a category other than ours. */
  differ: number;
  /** Messages Meta reported as not billable. */
  free: number;
  /** Charged messages with no pricing from Meta yet. */
  awaitingPricing: number;
}

interface GroupRow {
  userId: number | string;
  email: string;
  day: string;
  category: string;
  metaCategory: string | null;
  metaBillable: boolean | number | null;
  charged: boolean | number;
  n: number | string;
}

export class ReconciliationService {
  constructor(private readonly deps: { db: Knex }) {}

  /** Days from `from` to `to` (Indian days, inclusive), for one account or every account (`userId` null). */
  async byDay(range: { from: string; to: string; userId: number | null }): Promise<ReconciliationDay[]> {
    const { db } = this.deps;
    const since = istDayStart(range.from).toISOString();
    const until = new Date(istDayStart(range.to).getTime() + DAY_MS).toISOString();
    const day = istDaySql(db, 'm.created_at');
    const charged = 'case when m.price_units > 0 and not m.refunded then 1 else 0 end';
    const query = db('messages as m')
      .join('campaigns as c', 'c.id', 'm.campaign_id')
      .join('users as u', 'u.id', 'm.user_id')
      .where('m.created_at', '>=', since)
      .where('m.created_at', '<', until)
      .where((q) => q.where((c) => c.where('m.price_units', '>', 0).where('m.refunded', false)).orWhereNotNull('m.meta_billable'))
      .select(
        db.raw('m.user_id as "userId"'),
        db.raw('u.email as "email"'),
        db.raw(`${day} as "day"`),
        db.raw('c.category as "category"'),
        db.raw('m.meta_category as "metaCategory"'),
        db.raw('m.meta_billable as "metaBillable"'),
        db.raw(`${charged} as "charged"`),
        db.raw('count(*) as "n"'),
      )
      .groupByRaw(`m.user_id, u.email, ${day}, c.category, m.meta_category, m.meta_billable, ${charged}`);
    if (range.userId !== null) query.where('m.user_id', range.userId);
    const rows = (await query) as GroupRow[];
    const days = new Map<string, ReconciliationDay>();
    for (const row of rows) {
      const userId = Number(row.userId);
      const key = `${userId}:${row.day}`;
      const entry = days.get(key) ?? { userId, email: row.email, day: row.day, charged: {}, billedByMeta: {}, differ: 0, free: 0, awaitingPricing: 0 };
      days.set(key, entry);
      const n = Number(row.n);
      const ours = row.category.toUpperCase();
      const billable = row.metaBillable === null ? null : Boolean(row.metaBillable);
      const metaCategory = row.metaCategory ? row.metaCategory.toUpperCase() : null;
      if (Number(row.charged) === 1) {
        entry.charged[ours] = (entry.charged[ours] ?? 0) + n;
        if (billable === null) entry.awaitingPricing += n;
        else if (billable && metaCategory && metaCategory !== ours) entry.differ += n;
      }
      if (billable === true && metaCategory) entry.billedByMeta[metaCategory] = (entry.billedByMeta[metaCategory] ?? 0) + n;
      if (billable === false) entry.free += n;
    }
    return [...days.values()].sort((a, b) => a.day.localeCompare(b.day) || a.userId - b.userId);
  }
}
