/**
 * A job run once a day however many instances share the database. Every instance ticks once a
 * minute; the first tick at or after the day's hour runs the job, which claims the day by inserting
 * its run key (`<prefix>:<YYYY-MM-DD>`, unique in the job's table), so exactly one instance does the
 * work. A day missed while no instance was up runs at the next start after its hour. A failed run
 * is tried again at a later tick, backing off. The clock is injected so tests run a day's job
 * without waiting for it.
 */
import type { Knex } from 'knex';
import { IST_OFFSET_MS } from './istCalendar';
import { OutageLog } from './db/outage';
import type { Logger } from './logger';

const TICK_MS = 60_000;

export interface DailySchedule {
  /** What the job does, for the logs ("the daily log cleanup"). */
  what: string;
  /** The hour it is due from, on `clock`. */
  hour: number;
  clock: 'UTC' | 'IST';
  /** Its run keys' prefix, which tells apart jobs sharing one table of runs. */
  keyPrefix: string;
  log: Logger;
  now?: () => Date;
}

export abstract class DailyJob<R> {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<R | null> | null = null;
  private readonly failures: OutageLog;

  constructor(private readonly schedule: DailySchedule) {
    this.failures = new OutageLog(schedule.log, schedule.what, { firstMs: TICK_MS, maxMs: 16 * TICK_MS });
  }

  /** Claims the day (see `claimDay`) and does the work; null when another instance has the day. */
  protected abstract run(runKey: string): Promise<R | null>;

  /** Told after a run failed (e.g. the admins' notice). */
  protected onFailure(_error: unknown): Promise<void> | void {}

  protected now(): Date {
    return this.schedule.now?.() ?? new Date();
  }

  /** The claim key of the day whose run is due, or null before that day's hour. */
  dueRunKey(now: Date = this.now()): string | null {
    const local = this.schedule.clock === 'IST' ? new Date(now.getTime() + IST_OFFSET_MS) : now;
    if (local.getUTCHours() < this.schedule.hour) return null;
    return `${this.schedule.keyPrefix}:${local.toISOString().slice(0, 10)}`;
  }

  /** Runs today's job if it is due and no instance has claimed it; null when nothing ran here. */
  async tick(): Promise<R | null> {
    if (this.running) return this.running;
    const runKey = this.dueRunKey();
    if (!runKey) return null;
    this.running = (async () => {
      try {
        const result = await this.run(runKey);
        this.failures.recovered();
        return result;
      } catch (error) {
        this.failures.failed(error, { runKey });
        await this.onFailure(error);
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

/** Claims a day's run in `table` by its unique run key: the new row's id, or null when taken. */
export async function claimDay(db: Knex, table: string, runKey: string, startedAt: Date): Promise<number | null> {
  const inserted = (await db(table).insert({ runKey, startedAt: startedAt.toISOString() }).onConflict('runKey').ignore().returning('id')) as ({ id: number } | number)[];
  const first = inserted[0];
  if (first === undefined) return null;
  return typeof first === 'number' ? first : Number(first.id);
}
