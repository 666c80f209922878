/**
 * The daily log cleanup at 02:00 UTC (spec 001 §9). Every instance ticks once a minute; the first
 * tick at or after the hour claims the day by inserting `daily:<YYYY-MM-DD>` into
 * log_cleanup_runs (a unique key), so on PostgreSQL with several instances exactly one runs it,
 * and on SQLite the single process does. A day missed while no instance was up is run at the next
 * start after its hour. The clock is injected so tests run a day's job without waiting for it.
 */
import { OutageLog } from '../db/outage';
import type { Logger } from '../logger';
import type { CleanupRun, RetentionService } from './service';

const TICK_MS = 60_000;

export class DailyCleanupScheduler {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<CleanupRun | null> | null = null;
  private readonly failures: OutageLog;

  constructor(
    private readonly deps: {
      retention: RetentionService;
      hourUtc: number;
      log: Logger;
      now?: () => Date;
      /** Told after each daily run this instance made (the admins' notification). */
      onRun?: (run: CleanupRun) => Promise<void> | void;
      onFailure?: (error: unknown) => Promise<void> | void;
    },
  ) {
    // A failed run (a lost connection among others) is tried again at a later tick, backing off.
    this.failures = new OutageLog(deps.log, 'the daily log cleanup', { firstMs: TICK_MS, maxMs: 16 * TICK_MS });
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /** The claim key of the day whose run is due, or null before today's hour. */
  dueRunKey(now: Date = this.now()): string | null {
    if (now.getUTCHours() < this.deps.hourUtc) return null;
    return `daily:${now.toISOString().slice(0, 10)}`;
  }

  /** Runs today's cleanup if it is due and no instance has claimed it; null when nothing ran here. */
  async tick(): Promise<CleanupRun | null> {
    if (this.running) return this.running;
    const runKey = this.dueRunKey();
    if (!runKey) return null;
    this.running = (async () => {
      try {
        const run = await this.deps.retention.cleanup({ trigger: 'daily', runKey });
        if (run) await this.deps.onRun?.(run);
        return run;
        this.failures.recovered();
      } catch (error) {
        this.failures.failed(error, { runKey });
        await this.deps.onFailure?.(error);
        return null;
      } finally {
        this.running = null;
      }
    })();
    return this.running;
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
