/**
 * Log retention (spec 001 "Log cleanup"): message and campaign logs older than the
 * retention are deleted in bounded batches, each batch in its own short transaction so sending and
 * reports never wait long behind it. Before a message row goes, its figures are added to
 * `message_daily_totals` in the same transaction. The wallet ledger and the audit log are never
 * touched.
 *
 * Deleting with RETURNING makes concurrent cleanups harmless: a row is counted only by the
 * transaction that actually deleted it, so two runs (a manual one during the daily one, or two
 * instances) never count a message twice.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Knex } from 'knex';
import type { Logger } from '../logger';
import { addDailyTotals, totalsOf } from './dailyTotals';
import { FINAL_MESSAGE_STATUSES, type RetentionStore } from './store';
import { istDay } from '../istCalendar';

/** Campaign statuses that can no longer change. */
const FINAL_CAMPAIGN_STATUSES = ['completed', 'cancelled', 'failed'] as const;
/** Rows per delete transaction at most: each holds the write lock for a few milliseconds. */
export const CLEANUP_BATCH_SIZE = 2_000;
const MIN_BATCH = 50;
const MAX_REST_MS = 2_000;
const DAY_MS = 86_400_000;

export interface CleanupStats {
  messageLogsCount: number;
  campaignLogsCount: number;
  totalCount: number;
  thresholdDate: string;
}

export interface CleanupResult {
  messagesDeleted: number;
  campaignsDeleted: number;
  statusEventsDeleted: number;
  filesDeleted: number;
  totalDeleted: number;
  thresholdDate: string;
}

export interface CleanupRun extends CleanupResult {
  id: number;
  trigger: 'daily' | 'manual';
  startedAt: string;
  finishedAt: string | null;
  error: string | null;
}

interface CleanupRunRow {
  id: number;
  trigger: 'daily' | 'manual';
  threshold: string | Date;
  startedAt: string | Date;
  finishedAt: string | Date | null;
  messagesDeleted: number;
  campaignsDeleted: number;
  statusEventsDeleted: number;
  filesDeleted: number;
  error: string | null;
}

const iso = (value: string | Date) => new Date(value).toISOString();

export class RetentionService {
  constructor(
    private readonly deps: {
      db: Knex;
      /** Where cleanup differs between the databases (store.ts). */
      store: RetentionStore;
      dataDir: string;
      retentionDays: number;
      log: Logger;
      now?: () => Date;
      /** Rows per batch at most (and from the first batch on: tests pass a few). */
      batchSize?: number;
      /** Replaces the rest between batches (tests). */
      pauseBetweenBatches?: () => Promise<void>;
      /** The rest after a batch, as a share of the time it took (default the store's). */
      restRatio?: number;
    },
  ) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /** The instant before which logs are old: now minus the retention. */
  threshold(now: Date = this.now()): Date {
    return new Date(now.getTime() - this.deps.retentionDays * DAY_MS);
  }

  private oldMessages(threshold: string) {
    return this.deps.db('messages').where('createdAt', '<', threshold).whereIn('status', FINAL_MESSAGE_STATUSES);
  }

  /** Finished campaigns created before the threshold with no message at or after it. */
  private oldCampaigns(threshold: string) {
    const { db } = this.deps;
    return db('campaigns')
      .where('createdAt', '<', threshold)
      .whereIn('status', FINAL_CAMPAIGN_STATUSES)
      .whereNotExists((q) =>
        q
          .select(db.raw('1'))
          .from('messages')
          .whereRaw('messages.campaign_id = campaigns.id')
          .where((inner) => inner.where('messages.createdAt', '>=', threshold).orWhereNotIn('messages.status', FINAL_MESSAGE_STATUSES)),
      );
  }

  async stats(): Promise<CleanupStats> {
    const threshold = this.threshold().toISOString();
    const [messageRow, campaignRow] = await Promise.all([
      this.oldMessages(threshold).count({ n: '*' }).first() as Promise<{ n: number | string } | undefined>,
      this.oldCampaigns(threshold).count({ n: '*' }).first() as Promise<{ n: number | string } | undefined>,
    ]);
    const messageLogsCount = Number(messageRow?.n ?? 0);
    const campaignLogsCount = Number(campaignRow?.n ?? 0);
    return { messageLogsCount, campaignLogsCount, totalCount: messageLogsCount + campaignLogsCount, thresholdDate: threshold };
  }

  /** Runs a cleanup and records it; `runKey` claims the daily job's day (see log_cleanup_runs). */
  async cleanup(options: { trigger: 'daily' | 'manual'; adminId?: number | null; runKey?: string } = { trigger: 'manual' }): Promise<CleanupRun | null> {
    const { db } = this.deps;
    const threshold = this.threshold();
    const startedAt = this.now().toISOString();
    const inserted = (await db('log_cleanup_runs')
      .insert({ runKey: options.runKey ?? null, trigger: options.trigger, adminId: options.adminId ?? null, threshold: threshold.toISOString(), startedAt })
      .onConflict('runKey')
      .ignore()
      .returning('id')) as ({ id: number } | number)[];
    const first = inserted[0];
    // Another instance claimed this day's run first.
    if (first === undefined) return null;
    const runId = typeof first === 'number' ? first : Number(first.id);
    try {
      const result = await this.deleteOld(threshold);
      await db('log_cleanup_runs').where({ id: runId }).update({
        finishedAt: this.now().toISOString(),
        messagesDeleted: result.messagesDeleted,
        campaignsDeleted: result.campaignsDeleted,
        statusEventsDeleted: result.statusEventsDeleted,
        filesDeleted: result.filesDeleted,
      });
      return { id: runId, trigger: options.trigger, startedAt, finishedAt: this.now().toISOString(), error: null, ...result };
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      await db('log_cleanup_runs').where({ id: runId }).update({ finishedAt: this.now().toISOString(), error: text.slice(0, 500) });
      throw error;
    }
  }

  /** The last run of the daily job, if any. */
  async lastDailyRun(): Promise<CleanupRun | null> {
    const row = (await this.deps.db('log_cleanup_runs').where({ trigger: 'daily' }).orderBy('startedAt', 'desc').orderBy('id', 'desc').first()) as CleanupRunRow | undefined;
    if (!row) return null;
    return {
      id: Number(row.id),
      trigger: row.trigger,
      startedAt: iso(row.startedAt),
      finishedAt: row.finishedAt ? iso(row.finishedAt) : null,
      error: row.error,
      thresholdDate: iso(row.threshold),
      messagesDeleted: Number(row.messagesDeleted),
      campaignsDeleted: Number(row.campaignsDeleted),
      statusEventsDeleted: Number(row.statusEventsDeleted),
      filesDeleted: Number(row.filesDeleted),
      totalDeleted: Number(row.messagesDeleted) + Number(row.campaignsDeleted),
    };
  }

  /** DELETE ... RETURNING on both databases (knex's builder returns only a count on SQLite). */
  private async deleteReturning<T>(trx: Knex, sql: string, bindings: readonly (string | number)[]): Promise<T[]> {
    const result = (await trx.raw(sql, bindings)) as T[] | { rows: T[] };
    return Array.isArray(result) ? result : result.rows;
  }

  /** Paces one kind of delete: how many rows the next batch takes, and the rest after each. */
  private pacer(maxRows: number): BatchPacer {
    const { store } = this.deps;
    // A batch size given (tests) is the size of every batch.
    const budget = this.deps.batchSize === undefined ? store.timeBudget : null;
    return new BatchPacer({
      maxRows,
      firstRows: budget === null ? maxRows : Math.min(maxRows, budget.firstRows),
      budgetMs: budget?.ms ?? null,
      restRatio: this.deps.restRatio ?? store.restRatio,
      pause: this.deps.pauseBetweenBatches,
    });
  }

  private async deleteOld(threshold: Date): Promise<CleanupResult> {
    const cutoff = threshold.toISOString();
    const messagesDeleted = await this.deleteMessages(cutoff);
    const { campaignsDeleted, filesDeleted } = await this.deleteCampaigns(cutoff);
    const statusEventsDeleted = await this.deleteStatusEvents(cutoff);
    const numbersForgotten = await this.forgetNumbers();
    const figures = { threshold: cutoff, messagesDeleted, campaignsDeleted, statusEventsDeleted, filesDeleted, numbersForgotten };
    // A run that found nothing (every start of a young database) is not worth a line at info.
    if (messagesDeleted + campaignsDeleted + statusEventsDeleted + filesDeleted + numbersForgotten > 0) this.deps.log.info(figures, 'old logs cleaned up');
    else this.deps.log.debug(figures, 'no old logs to clean up');
    return { messagesDeleted, campaignsDeleted, statusEventsDeleted, filesDeleted, totalDeleted: messagesDeleted + campaignsDeleted, thresholdDate: cutoff };
  }

  private async deleteMessages(cutoff: string): Promise<number> {
    const { db } = this.deps;
    const pacer = this.pacer(this.deps.batchSize ?? CLEANUP_BATCH_SIZE);
    let deleted = 0;
    // Where the last batch ended: old rows kept (still queued or in flight) are not walked again
    // by every batch. Inclusive, as rows of one campaign share their creation time.
    let from: string | null = null;
    for (;;) {
      const started = performance.now();
      const batch = await this.deps.store.oldMessageBatch(db, cutoff, from, pacer.rows);
      if (batch.length === 0) return deleted;
      const ids = batch.map((row) => row.id);
      from = new Date((batch[batch.length - 1] as { createdAt: string | Date }).createdAt).toISOString();
      const rows = await db.transaction(async (trx) => {
        const gone = await this.deps.store.deleteMessages(trx, ids, this.now().toISOString());
        await addDailyTotals(trx, totalsOf(gone));
        return gone.length;
      });
      deleted += rows;
      await pacer.rest(performance.now() - started);
    }
  }

  /** The numbers kept for the reports' search whose messages this run or an earlier one deleted (store.ts). */
  private async forgetNumbers(): Promise<number> {
    const pacer = this.pacer(this.deps.batchSize ?? CLEANUP_BATCH_SIZE);
    let forgotten = 0;
    for (;;) {
      const started = performance.now();
      const batch = await this.deps.store.forgetNumbers(this.deps.db, pacer.rows);
      if (batch.taken === 0) return forgotten;
      forgotten += batch.forgotten;
      await pacer.rest(performance.now() - started);
    }
  }

  private async deleteCampaigns(cutoff: string): Promise<{ campaignsDeleted: number; filesDeleted: number }> {
    const { db } = this.deps;
    const pacer = this.pacer(Math.min(this.deps.batchSize ?? CLEANUP_BATCH_SIZE, 500));
    let campaignsDeleted = 0;
    let filesDeleted = 0;
    for (;;) {
      const started = performance.now();
      const ids = (await this.oldCampaigns(cutoff).orderBy('createdAt').limit(pacer.rows).pluck('id')) as (number | string)[];
      if (ids.length === 0) return { campaignsDeleted, filesDeleted };
      const gone = await db.transaction(async (trx) => {
        const rows = await this.deleteReturning<{ id: number; userId: number; createdAt: string | Date; billableCount: number; cancelledCount: number; headerMediaPath: string | null }>(
          trx,
          `delete from campaigns where id in (${ids.map(() => '?').join(', ')}) and staged_recipients = 0 and not exists (select 1 from messages where messages.campaign_id = campaigns.id)
           returning id as "id", user_id as "userId", created_at as "createdAt", billable_count as "billableCount", cancelled_count as "cancelledCount", header_media_path as "headerMediaPath"`,
          ids,
        );
        // The admin dashboard's usage reads billable counts from campaigns: keep a deleted one's.
        await addDailyTotals(
          trx,
          rows
            .filter((row) => Number(row.billableCount) - Number(row.cancelledCount) > 0)
            .map((row) => ({ userId: Number(row.userId), campaignId: Number(row.id), day: istDay(row.createdAt), metric: 'campaign:billable', count: Number(row.billableCount) - Number(row.cancelledCount) })),
        );
        return rows;
      });
      campaignsDeleted += gone.length;
      filesDeleted += await this.deleteCampaignFiles(gone.map((row) => row.headerMediaPath));
      await pacer.rest(performance.now() - started);
    }
  }

  /** A campaign's own uploaded header (media/campaigns/...), once no remaining campaign sends it. Template samples stay. */
  private async deleteCampaignFiles(paths: readonly (string | null)[]): Promise<number> {
    const own = [...new Set(paths.filter((p): p is string => Boolean(p && p.startsWith('media/campaigns/'))))];
    if (own.length === 0) return 0;
    const stillUsed = new Set((await this.deps.db('campaigns').whereIn('headerMediaPath', own).pluck('headerMediaPath')) as string[]);
    const root = path.resolve(this.deps.dataDir, 'media', 'campaigns');
    let removed = 0;
    for (const relative of own) {
      if (stillUsed.has(relative)) continue;
      const absolute = path.resolve(this.deps.dataDir, relative);
      if (!absolute.startsWith(root + path.sep)) continue;
      try {
        await rm(absolute);
        removed += 1;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.deps.log.warn({ err: error, path: relative }, 'campaign file not deleted');
      }
    }
    return removed;
  }

  private async deleteStatusEvents(cutoff: string): Promise<number> {
    const { db } = this.deps;
    const pacer = this.pacer(this.deps.batchSize ?? CLEANUP_BATCH_SIZE);
    let deleted = 0;
    for (;;) {
      const started = performance.now();
      const ids = (await db('status_events').where('createdAt', '<', cutoff).orderBy('createdAt').limit(pacer.rows).pluck('id')) as (number | string)[];
      if (ids.length === 0) return deleted;
      deleted += await db('status_events').whereIn('id', ids).delete();
      await pacer.rest(performance.now() - started);
    }
  }
}

/**
 * The size of the next batch and the rest after each. With a time budget (SQLite), the size
 * follows the time a row took in the last batch, moving halfway to the size that would fit the
 * budget: a batch slowed once (the process descheduled on a busy machine) does not collapse the
 * size, a steady change is followed within a few batches. The rest is as long as the batch took
 * (bounded), so the cleanup takes at most half the database's time whichever database it is.
 */
export class BatchPacer {
  rows: number;

  constructor(private readonly settings: { maxRows: number; firstRows: number; budgetMs: number | null; restRatio?: number; pause?: (() => Promise<void>) | undefined }) {
    this.rows = Math.max(1, settings.firstRows);
  }

  async rest(batchMs: number): Promise<void> {
    const { budgetMs, maxRows, pause } = this.settings;
    if (budgetMs !== null) {
      const fitting = (budgetMs / Math.max(batchMs, 0.1)) * this.rows;
      const next = Math.round((this.rows + fitting) / 2);
      this.rows = Math.min(maxRows, Math.max(Math.min(MIN_BATCH, maxRows), next));
    }
    if (pause) return pause();
    const restMs = Math.min(MAX_REST_MS, Math.round(batchMs * (this.settings.restRatio ?? 1)));
    await new Promise<void>((resolve) => setTimeout(resolve, Math.max(1, restMs)));
  }
}
