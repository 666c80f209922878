/**
 * The daily template sync (templates/sync.ts's syncAll) at TEMPLATE_SYNC.dailyHourIst, India's
 * time, claimed once across instances by `daily:<YYYY-MM-DD>` in template_sync_runs (dailyJob.ts).
 */
import type { Knex } from 'knex';
import { claimDay, DailyJob } from '../dailyJob';
import type { Logger } from '../logger';
import type { TTemplateSyncResult } from '@shared/types';

export type DailySyncRun = TTemplateSyncResult & { runKey: string; accounts: number; accountsFailed: number };

export class DailyTemplateSync extends DailyJob<DailySyncRun> {
  constructor(
    private readonly deps: {
      db: Knex;
      sync: { syncAll(): Promise<TTemplateSyncResult & { accounts: number; accountsFailed: number }> };
      hourIst: number;
      log: Logger;
      now?: () => Date;
    },
  ) {
    super({ what: 'the daily template sync', hour: deps.hourIst, clock: 'IST', keyPrefix: 'daily', log: deps.log, ...(deps.now ? { now: deps.now } : {}) });
  }

  protected async run(runKey: string): Promise<DailySyncRun | null> {
    const { db } = this.deps;
    const id = await claimDay(db, 'template_sync_runs', runKey, this.now());
    // Another instance (or an earlier start today) has the day.
    if (id === null) return null;
    const result = await this.deps.sync.syncAll();
    await db('template_sync_runs').where({ id }).update({
      finishedAt: this.now().toISOString(),
      accounts: result.accounts,
      accountsFailed: result.accountsFailed,
      imported: result.imported,
      updated: result.updated,
      unchanged: result.unchanged,
      failed: result.failed,
    });
    this.deps.log.info({ runKey, ...result }, 'daily template sync finished');
    return { runKey, ...result };
  }
}
