/**
 * The loop behind Meta's guidance for webhook servers (acknowledge at once, apply later): a
 * webhook stores what it received with one insert and answers; this applier then takes the stored
 * rows a batch at a time. Status events (sending/statusIngest.ts) and incoming messages
 * (conversations/service.ts) both run on it; each gives the one batch it knows how to apply.
 *
 * A store asks for a flush shortly after (stores arriving meanwhile join the same flush); a flush
 * takes batches until one comes back short. A periodic sweep picks up rows left for a retry and
 * rows stored by other instances, and while flushes fail it backs off (db/outage.ts).
 */
import type { Logger } from '../logger';
import { OutageLog } from './outage';

export interface BatchApplierOptions {
  /** Applies one batch of stored rows; answers how many it took. */
  applyOnce: () => Promise<number>;
  /** The most rows `applyOnce` takes: a full batch means more may be waiting. */
  batchSize: number;
  log: Logger;
  /** What the loop does, for the outage log ("applying status events"). */
  what: string;
  /** How long after a store its flush starts, so that stores arriving together share it. */
  flushDelayMs?: number;
  /** How often stored rows are looked for without a store asking. */
  sweepMs?: number;
}

const FLUSH_DELAY_MS = 20;
const SWEEP_MS = 1_000;

export class BatchApplier {
  private flushTimer: NodeJS.Timeout | null = null;
  private sweepTimer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private again = false;
  private stopped = true;
  private readonly failures: OutageLog;
  private readonly flushDelayMs: number;

  constructor(private readonly options: BatchApplierOptions) {
    this.failures = new OutageLog(options.log, options.what);
    this.flushDelayMs = options.flushDelayMs ?? FLUSH_DELAY_MS;
  }

  start(): void {
    this.stopped = false;
    this.sweepTimer = setInterval(() => this.schedule(this.failures.pauseMs()), this.options.sweepMs ?? SWEEP_MS);
    this.sweepTimer.unref();
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.flushTimer) clearTimeout(this.flushTimer);
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.flushTimer = null;
    await this.flushing;
  }

  /** Called after rows were stored: a flush starts shortly. */
  stored(): void {
    this.schedule(this.flushDelayMs);
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    if (this.flushing) {
      this.again = true;
      return;
    }
    if (this.flushTimer) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = null;
      this.flushing = this.flushAll().finally(() => {
        this.flushing = null;
        if (this.again) {
          this.again = false;
          this.schedule(this.flushDelayMs);
        }
      });
    }, delayMs);
  }

  /** Waits for a flush in progress, then applies everything available now (tests, bench, shutdown). */
  async drain(): Promise<void> {
    // A scheduled flush may start while this one runs and hold rows this one then skips (skip
    // locked on PostgreSQL): wait for it and look again, so that everything stored before the
    // call is applied when it returns.
    do {
      await this.flushing;
      await this.flushAll(true);
    } while (this.flushing);
  }

  /** `whenStopped`: a drain applies what is waiting even before start or after stop. */
  private async flushAll(whenStopped = false): Promise<void> {
    try {
      while ((whenStopped || !this.stopped) && (await this.options.applyOnce()) === this.options.batchSize);
      this.failures.recovered();
    } catch (error) {
      this.failures.failed(error);
    }
  }
}
