/**
 * The daily template sync (templates/sync.ts's syncAll) at TEMPLATE_SYNC.dailyHourIst, India's
 * time. Every instance ticks once a minute; the first tick at or after the hour claims the Indian
 * day by inserting `daily:<YYYY-MM-DD>` into template_sync_runs (a unique key), so with several
 * instances on one database exactly one reads the accounts, as the daily log cleanup does
 * (retention/scheduler.ts). A day missed while no instance was up runs at the next start after
 * its hour. The clock is injected so tests run a day's sync without waiting for it.
 */
import type { Knex } from 'knex';
import { IST_OFFSET_MS } from '../istCalendar';
import { OutageLog } from '../db/outage';
import type { Logger } from '../logger';
import type { TTemplateSyncResult } from '@shared/types';

const TICK_MS = 60_000;

export type DailySyncRun = TTemplateSyncResult & { runKey: string; accounts: number; accountsFailed: number };

export class DailyTemplateSync {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<DailySyncRun | null> | null = null;
  private readonly failures: OutageLog;

  constructor(
    private readonly deps: {
      db: Knex;
      sync: { syncAll(): Promise<TTemplateSyncResult & { accounts: number; accountsFailed: number }> };
      hourIst: number;
      log: Logger;
      now?: () => Date;
    },
  ) {
    this.failures = new OutageLog(deps.log, 'the daily template sync', { firstMs: TICK_MS, maxMs: 16 * TICK_MS });
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /** The claim key of the Indian day whose sync is due, or null before that day's hour. */
  dueRunKey(now: Date = this.now()): string | null {
    const india = new Date(now.getTime() + IST_OFFSET_MS);
    if (india.getUTCHours() < this.deps.hourIst) return null;
    return `daily:${india.toISOString().slice(0, 10)}`;
  }

  /** Runs today's sync if it is due and no instance has claimed it; null when nothing ran here. */
  async tick(): Promise<DailySyncRun | null> {
    if (this.running) return this.running;
    const runKey = this.dueRunKey();
    if (!runKey) return null;
    this.running = (async () => {
      try {
        const run = await this.claimAndRun(runKey);
        this.failures.recovered();
        return run;
      } catch (error) {
        this.failures.failed(error, { runKey });
        return null;
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  private async claimAndRun(runKey: string): Promise<DailySyncRun | null> {
    const { db } = this.deps;
    const startedAt = this.now().toISOString();
    const inserted = (await db('template_sync_runs').insert({ runKey, startedAt }).onConflict('runKey').ignore().returning('id')) as ({ id: number } | number)[];
    const first = inserted[0];
    // Another instance (or an earlier start today) has the day.
    if (first === undefined) return null;
    const id = typeof first === 'number' ? first : Number(first.id);
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

  start(): void {
    if (this.timer) return;
    const fire = () => {
      if (!this.failures.ready()) return;
      this.tick().catch((error: unknown) => this.failures.failed(error));
    };
    this.timer = setInterval(fire, TICK_MS);
    this.timer.unref();
    fire();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
