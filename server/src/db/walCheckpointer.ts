import { Worker } from 'node:worker_threads';
import type { Knex } from 'knex';
import type { Logger } from '../logger';

/** SQLite's own default: the committing connection checkpoints once the log passes 1,000 pages. */
const INLINE_AUTOCHECKPOINT_PAGES = 1_000;

/** How often the thread copies the log: often enough that the log stays short between sends. */
const CHECKPOINT_INTERVAL_MS = 250;

const ENTRY = new URL('./walCheckpointWorker.mjs', import.meta.url);

export interface CheckpointResult {
  /** Frames in the log when the checkpoint ran. */
  log: number;
  /** Of those, frames now copied into the database file. */
  checkpointed: number;
}

type WorkerReport = ({ type: 'checkpointed' } & CheckpointResult & { request: number | null }) | { type: 'failed'; request: number | null; message: string };

/**
 * SQLite in WAL mode copies the log into the database file at the end of the commit that takes the
 * log past 1,000 pages, on the connection that committed: the server's only connection, on its only
 * thread. After a million-recipient campaign that copy held the event loop for seconds (seen in a
 * CPU profile of a million-row upload send), and every request waited for it. Here a worker thread with
 * a connection of its own makes the copy every 250 ms, and the server's connection never
 * checkpoints (`wal_autocheckpoint = 0`). Should the thread end unasked, the server's connection
 * checkpoints by itself again, so the log never grows without bound.
 */
export class WalCheckpointer {
  private stopping = false;
  private running = true;
  private nextRequest = 1;
  private readonly pending = new Map<number, { resolve(result: CheckpointResult): void; reject(error: Error): void }>();
  private readonly exited: Promise<void>;

  private constructor(
    private readonly db: Knex,
    private readonly worker: Worker,
    private readonly log: Logger,
  ) {
    this.exited = new Promise((resolve) => worker.once('exit', () => resolve()));
    worker.on('message', (report: WorkerReport) => this.received(report));
    worker.on('error', (error) => this.log.warn({ err: error }, 'the WAL checkpoint thread failed'));
    worker.once('exit', (code) => void this.ended(code));
  }

  /** Starts the thread on the database file, then stops the server's connection checkpointing. */
  static async start(db: Knex, filename: string, log: Logger, intervalMs = CHECKPOINT_INTERVAL_MS): Promise<WalCheckpointer> {
    const worker = new Worker(ENTRY, { workerData: { filename, intervalMs }, execArgv: [], stdout: false, stderr: false });
    worker.unref();
    const checkpointer = new WalCheckpointer(db, worker, log);
    await db.raw('pragma wal_autocheckpoint = 0');
    return checkpointer;
  }

  /** A checkpoint now, answered with what it copied (the tests' view of the thread). */
  checkpointNow(): Promise<CheckpointResult> {
    if (!this.running) return Promise.reject(new Error('the WAL checkpoint thread has ended'));
    const request = this.nextRequest++;
    return new Promise((resolve, reject) => {
      this.pending.set(request, { resolve, reject });
      this.worker.postMessage({ type: 'checkpoint', request });
    });
  }

  /** Ends the thread after a last checkpoint; the server's connection then closes the log itself. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.running) this.worker.postMessage({ type: 'stop' });
    await this.exited;
  }

  private received(report: WorkerReport): void {
    if (report.type === 'failed') this.log.warn({ message: report.message }, 'a WAL checkpoint failed');
    if (report.request === null) return;
    const waiting = this.pending.get(report.request);
    if (!waiting) return;
    this.pending.delete(report.request);
    if (report.type === 'failed') waiting.reject(new Error(report.message));
    else waiting.resolve({ log: report.log, checkpointed: report.checkpointed });
  }

  private async ended(code: number): Promise<void> {
    this.running = false;
    for (const waiting of this.pending.values()) waiting.reject(new Error('the WAL checkpoint thread has ended'));
    this.pending.clear();
    if (this.stopping) return;
    this.log.warn({ code }, 'the WAL checkpoint thread ended; the server connection checkpoints by itself again');
    try {
      await this.db.raw(`pragma wal_autocheckpoint = ${INLINE_AUTOCHECKPOINT_PAGES}`);
    } catch (error) {
      this.log.warn({ err: error }, 'could not turn inline WAL checkpoints back on');
    }
  }
}
