/**
 * The daily log cleanup at 02:00 UTC (spec 001 §9), claimed once across instances (dailyJob.ts):
 * the cleanup itself claims the day in log_cleanup_runs.
 */
import { DailyJob } from '../dailyJob';
import type { Logger } from '../logger';
import type { CleanupRun, RetentionService } from './service';

export class DailyCleanupScheduler extends DailyJob<CleanupRun> {
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
    super({ what: 'the daily log cleanup', hour: deps.hourUtc, clock: 'UTC', keyPrefix: 'daily', log: deps.log, ...(deps.now ? { now: deps.now } : {}) });
  }

  protected async run(runKey: string): Promise<CleanupRun | null> {
    const run = await this.deps.retention.cleanup({ trigger: 'daily', runKey });
    if (run) await this.deps.onRun?.(run);
    return run;
  }

  protected override async onFailure(error: unknown): Promise<void> {
    await this.deps.onFailure?.(error);
  }
}
