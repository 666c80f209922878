/**
 * A background worker's pause between polls, which a wake-up cuts short. A wake-up that comes while
 * the worker is busy is kept, so its next pause ends at once: work announced during a turn does
 * not wait for the next poll.
 */
export class IdlePause {
  /** Every loop pausing now: a worker may run several (the materialiser's chunks side by side). */
  private readonly waiting = new Set<() => void>();
  private woken = false;

  /** The usual pause. */
  constructor(readonly ms: number) {}

  /** Ends the pauses under way, or else the next one at once. */
  interrupt(): void {
    this.woken = true;
    for (const wake of this.waiting) wake();
  }

  /** Pauses for the usual time, or for `ms` (a backoff after a failure), unless interrupted. */
  async wait(ms: number = this.ms): Promise<void> {
    if (this.woken) {
      this.woken = false;
      return;
    }
    const waiting = this.waiting;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      // A pause never keeps the process alive.
      timer.unref();
      function done() {
        clearTimeout(timer);
        waiting.delete(done);
        resolve();
      }
      waiting.add(done);
    });
    this.woken = false;
  }
}

/**
 * A worker that runs one loop in the background from `start` until `stop`, pausing between turns
 * (`pause`); `stop` ends a pause under way and waits for the turn in progress.
 */
export abstract class PollingWorker {
  protected running = false;
  protected readonly pause: IdlePause;
  private loop: Promise<void> | null = null;

  constructor(idleMs: number) {
    this.pause = new IdlePause(idleMs);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.pause.interrupt();
    await this.loop;
    this.loop = null;
  }

  /** The loop: runs while `running`. */
  protected abstract run(): Promise<void>;
}
