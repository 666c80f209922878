/**
 * Spreadsheet parsing off the main thread. exceljs caches every shared string,
 * so a 2 MB .xlsx that inflates to 200 MB can take hundreds of megabytes to read. Each parse runs in
 * a `worker_threads` Worker whose V8 heap is capped (`resourceLimits`): a file that needs more
 * kills only its worker (ERR_WORKER_OUT_OF_MEMORY), which becomes a 413 with the catalogue's words.
 *
 * Rows come back in batches with credit-based flow control: the worker may have at most
 * `CREDITS` batches that the consumer has not yet taken, so a million-row file never piles up in
 * the main thread, and a slow consumer slows the parser instead of buffering it.
 *
 * Parses across the whole instance are bounded too (`maxRunning`): a parse past that waits in a
 * first-in, first-out queue, without a worker, and can say where it stands (`status(tag)`), so a
 * server never holds more than `maxRunning` workers' memory however many users parse at once.
 * Each worker's whole memory is capped: the V8 generations and code space by `resourceLimits`,
 * and what lives outside the heap (file buffers, inflate output) by `bufferMb`, which the worker
 * checks itself (parseWorker.ts).
 *
 * Workers start in about half a second (tsx and exceljs load in each), so one that finished a
 * parse, or refused a file by one of our own checks (too many columns, a cell too long), is kept for
 * the next; any other ending (a parser library's error, abort, early stop, the memory cap)
 * terminates it, so no broken stream or bloated heap is ever reused.
 */
import { Worker } from 'node:worker_threads';
import { messages } from '@shared/messages';
import { AppError, ValidationError } from '../errors';
import type { TFieldMessage } from '@shared/schemas/common';
import type { SpreadsheetKind, SpreadsheetLimits } from './spreadsheetKinds';

/** A file on disk the worker reads itself (a resumable upload): CSV streams, gzip included. */
export interface SpreadsheetFile {
  path: string;
  /** The file is gzip-compressed (only CSV is read that way). */
  gzip: boolean;
}

/** What a parse asks of the worker: an upload in memory, or a file on disk. */
export type ParseJob = {
  kind: SpreadsheetKind;
  limits: SpreadsheetLimits;
  /** Send only the first cell of each row (the recipient import reads nothing else). */
  firstColumnOnly: boolean;
  /**
   * Send only this many rows (the header included), then only count the rest: `rowCount` and
   * `width` describe the whole sheet while the main thread holds a sample.
   */
  sampleRows?: number;
} & (
  | {
      /** The upload; its buffer is transferred to the worker (the caller must not use it afterwards). */
      content: Uint8Array<ArrayBuffer>;
      file?: undefined;
    }
  | { file: SpreadsheetFile; content?: undefined }
);

/** An AppError as it crosses from the worker (errors lose their class in postMessage). */
export interface WorkerAppError {
  status: number;
  code: string;
  message: string;
  field?: string;
  details?: TFieldMessage[];
}

export type ToWorker =
  | ({ type: 'parse'; credits: number; batchRows: number; batchChars: number; liveHeapShare: number; bufferBytes: number } & ParseJob)
  | { type: 'more' };

export type FromWorker =
  | { type: 'ready' }
  | { type: 'rows'; rows: string[][] }
  /** `rows`: the rows read (header included, empty ones skipped); `width`: the widest row's cells. */
  | { type: 'done'; truncated: boolean; rows: number; width: number }
  /** `reusable`: one of our own checks refused the file; the parser libraries saw no error. */
  | { type: 'failed'; error: WorkerAppError; reusable: boolean };

/** Batches the consumer may be behind by before the worker waits. */
const CREDITS = 2;
/** A batch is sent at this many rows or characters, whichever comes first. */
const BATCH_ROWS = 1_000;
const BATCH_CHARS = 512 * 1024;
/** A worker is retired after this many parses, so no slow leak in a parser library can build up. */
const JOBS_PER_WORKER = 100;
/** Idle workers are ended after this long (each holds tens of MB). */
const IDLE_MS = 60_000;
/** See ParseWorkerPoolOptions.liveHeapShare. */
const LIVE_HEAP_SHARE = 0.75;
/** The young generation of each worker: exceljs makes many short-lived objects, so not too small. */
const YOUNG_GENERATION_MB = 32;
/** Compiled code of tsx, exceljs, papaparse and SheetJS fits in a fraction of this. */
const CODE_RANGE_MB = 64;
/** See ParseWorkerPoolOptions.bufferMb. */
export const DEFAULT_WORKER_BUFFER_MB = 128;
/** See ParseWorkerPoolOptions.maxRunning. */
export const DEFAULT_MAX_RUNNING_PARSES = 2;

const ENTRY = new URL('./parseWorker.mjs', import.meta.url);

export const heavyFileError = () => new AppError(413, 'file_too_heavy', messages.sending.fileTooHeavy, 'file');
const unreadableError = () => ValidationError('file', messages.sending.fileUnreadable);
export const parseCancelledError = () => new AppError(400, 'parse_cancelled', messages.sending.parseCancelled, 'file');

interface PooledWorker {
  worker: Worker;
  ready: boolean;
  jobs: number;
  idleTimer: NodeJS.Timeout | null;
}

export interface ParseWorkerPoolOptions {
  /** The V8 old-generation cap of each worker (SPREADSHEET_WORKER_MEMORY_MB). */
  memoryMb: number;
  /** Idle workers kept for the next parse. */
  maxIdle?: number;
  /**
   * The share of the worker's heap (old and young generations) that may still be live after a
   * full collection before the file is refused, without waiting for V8's own out-of-memory end
   * (which comes only after seconds of back-to-back collections). 1 leaves it to V8 alone.
   */
  liveHeapShare?: number;
  /**
   * What one worker may hold outside its V8 heap (ArrayBuffers: the workbook file it reads whole,
   * inflated zip data) in MB (SPREADSHEET_WORKER_BUFFER_MB). A workbook file larger than this is
   * refused before it is read; the worker refuses the file once its buffers pass it.
   */
  bufferMb?: number;
  /** Parses running at once in this pool, across all users (SPREADSHEET_PARSES_MAX); the rest queue. */
  maxRunning?: number;
}

/** Where a tagged parse stands: waiting for a slot (1 is next), or reading. */
export type ParseRunStatus = { state: 'queued'; position: number } | { state: 'parsing' };

interface QueuedRun {
  tag: string | undefined;
  start: () => void;
  /** Fails the queued parse (the pool is closing). */
  cancel: () => void;
}

/** Rows of one parse, in batches; `stop()` ends it early (terminating its worker). */
export interface ParseRun {
  batches(): AsyncGenerator<string[][]>;
  /** Valid once `batches()` has finished. */
  readonly truncated: boolean;
  /** Rows read in all, sent or only counted (see ParseJob.sampleRows); valid once `batches()` has finished. */
  readonly rowCount: number;
  /** Cells of the widest row read; valid once `batches()` has finished. */
  readonly width: number;
  /** Batches received and not yet taken (at most the worker's credits). */
  readonly queuedBatches: number;
  /** Waiting for one of the pool's slots (see ParseWorkerPoolOptions.maxRunning). */
  readonly waiting: boolean;
  stop(): void;
}

export class ParseWorkerPool {
  private readonly idle: PooledWorker[] = [];
  private readonly live = new Set<Worker>();
  private readonly maxIdle: number;
  private readonly maxRunning: number;
  private readonly waiting: QueuedRun[] = [];
  /** Tags of the parses holding a slot now (a tag may run more than once at a time). */
  private readonly runningTags: (string | undefined)[] = [];
  private closed = false;
  private started = 0;
  private peakRunning = 0;

  constructor(private readonly options: ParseWorkerPoolOptions) {
    this.maxIdle = options.maxIdle ?? 2;
    this.maxRunning = options.maxRunning ?? DEFAULT_MAX_RUNNING_PARSES;
  }

  /**
   * Workers started so far, alive now, and idle among those; parses running and queued now, and
   * the most that ever ran at once (tests and diagnostics).
   */
  stats(): { started: number; live: number; idle: number; running: number; queued: number; peakRunning: number } {
    return {
      started: this.started,
      live: this.live.size,
      idle: this.idle.length,
      running: this.runningTags.length,
      queued: this.waiting.length,
      peakRunning: this.peakRunning,
    };
  }

  /** Where the parse started with this tag stands, or null when none is queued or running. */
  status(tag: string): ParseRunStatus | null {
    const at = this.waiting.findIndex((queued) => queued.tag === tag);
    if (at !== -1) return { state: 'queued', position: at + 1 };
    return this.runningTags.includes(tag) ? { state: 'parsing' } : null;
  }

  /** Takes a slot now if one is free; else queues `start` (first in, first out). */
  private enter(entry: QueuedRun): boolean {
    if (this.runningTags.length < this.maxRunning && this.waiting.length === 0) {
      this.occupy(entry.tag);
      return true;
    }
    this.waiting.push(entry);
    return false;
  }

  private occupy(tag: string | undefined): void {
    this.runningTags.push(tag);
    this.peakRunning = Math.max(this.peakRunning, this.runningTags.length);
  }

  /** A queued parse that gave up before its turn. */
  private leaveQueue(entry: QueuedRun): void {
    const at = this.waiting.indexOf(entry);
    if (at !== -1) this.waiting.splice(at, 1);
  }

  /** A running parse ended: its slot goes to the longest-waiting one. */
  private leaveSlot(tag: string | undefined): void {
    const at = this.runningTags.indexOf(tag);
    if (at !== -1) this.runningTags.splice(at, 1);
    while (!this.closed && this.runningTags.length < this.maxRunning) {
      const next = this.waiting.shift();
      if (!next) return;
      this.occupy(next.tag);
      next.start();
    }
  }

  /** Ends every worker; parses still running fail. */
  async close(): Promise<void> {
    this.closed = true;
    for (const queued of this.waiting.splice(0)) queued.cancel();
    for (const pooled of this.idle) if (pooled.idleTimer) clearTimeout(pooled.idleTimer);
    this.idle.length = 0;
    await Promise.all([...this.live].map((worker) => worker.terminate()));
  }

  private spawn(): PooledWorker {
    const worker = new Worker(ENTRY, {
      // The worker registers tsx itself (parseWorker.mjs), under vitest as under `npm start`; the
      // parent's flags (`--import tsx`, test runner hooks) are not passed on.
      execArgv: [],
      resourceLimits: {
        maxOldGenerationSizeMb: this.options.memoryMb,
        maxYoungGenerationSizeMb: YOUNG_GENERATION_MB,
        codeRangeSizeMb: CODE_RANGE_MB,
      },
      stdout: false,
      stderr: false,
    });
    const pooled: PooledWorker = { worker, ready: false, jobs: 0, idleTimer: null };
    this.started += 1;
    this.live.add(worker);
    worker.once('exit', () => {
      this.live.delete(worker);
      this.dropIdle(pooled);
    });
    // An idle worker that fails is simply dropped; a busy one's failure is handled by its run.
    worker.on('error', () => this.dropIdle(pooled));
    return pooled;
  }

  private take(): PooledWorker {
    const pooled = this.idle.pop();
    if (pooled) {
      if (pooled.idleTimer) clearTimeout(pooled.idleTimer);
      pooled.idleTimer = null;
      pooled.worker.ref();
      return pooled;
    }
    return this.spawn();
  }

  private dropIdle(pooled: PooledWorker): void {
    const at = this.idle.indexOf(pooled);
    if (at !== -1) this.idle.splice(at, 1);
    if (pooled.idleTimer) clearTimeout(pooled.idleTimer);
    pooled.idleTimer = null;
  }

  private giveBack(pooled: PooledWorker): void {
    if (this.closed || pooled.jobs >= JOBS_PER_WORKER || this.idle.length >= this.maxIdle) {
      void pooled.worker.terminate();
      return;
    }
    // An idle worker must not keep the process (or a test run) alive.
    pooled.worker.unref();
    pooled.idleTimer = setTimeout(() => {
      this.dropIdle(pooled);
      void pooled.worker.terminate();
    }, IDLE_MS);
    pooled.idleTimer.unref();
    this.idle.push(pooled);
  }

  /**
   * Starts a parse, or queues it until one of the pool's slots is free. `signal` (the request going
   * away) terminates the worker at once, or takes the parse out of the queue; `readAhead` is how
   * many batches the worker may be ahead of the consumer (`CREDITS` unless given); `tag` names the
   * parse for `status()`.
   */
  run(job: ParseJob, signal?: AbortSignal, readAhead: number = CREDITS, tag?: string): ParseRun {
    if (signal?.aborted) throw parseCancelledError();
    if (this.closed) throw new Error('the spreadsheet parser pool is closed');
    let pooled: PooledWorker | null = null;
    const queue: string[][][] = [];
    let finished = false;
    let holdsSlot = false;
    let failure: unknown = null;
    let truncated = false;
    let rowCount = 0;
    let width = 0;
    let wake: (() => void) | null = null;
    const notify = () => {
      const resolve = wake;
      wake = null;
      resolve?.();
    };
    const releaseSlot = () => {
      if (!holdsSlot) return;
      holdsSlot = false;
      this.leaveSlot(tag);
    };

    const cleanup = () => {
      signal?.removeEventListener('abort', onAbort);
      if (pooled) {
        pooled.worker.off('message', onMessage);
        pooled.worker.off('error', onError);
        pooled.worker.off('exit', onExit);
      } else {
        this.leaveQueue(entry);
      }
      releaseSlot();
    };
    /** Ends the run with an error, terminating its worker (if it had one yet). */
    const fail = (error: unknown) => {
      if (finished) return;
      finished = true;
      failure = error;
      const worker = pooled?.worker;
      cleanup();
      if (worker) void worker.terminate();
      notify();
    };
    const succeed = (current: PooledWorker) => {
      finished = true;
      cleanup();
      this.giveBack(current);
      notify();
    };
    const onMessage = (message: FromWorker) => {
      if (finished || !pooled) return;
      switch (message.type) {
        case 'ready':
          pooled.ready = true;
          return;
        case 'rows':
          queue.push(message.rows);
          notify();
          return;
        case 'done':
          truncated = message.truncated;
          rowCount = message.rows;
          width = message.width;
          succeed(pooled);
          return;
        case 'failed': {
          const { status, code, message: text, field, details } = message.error;
          const error = new AppError(status, code, text, field, details);
          if (!message.reusable) {
            fail(error);
            return;
          }
          failure = error;
          succeed(pooled);
          return;
        }
      }
    };
    const onError = (error: Error & { code?: string }) => {
      if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') fail(heavyFileError());
      // Once running, the worker only reads the upload: an uncaught error there (a stream of a
      // corrupt file erroring without a listener) is the file's. Before that it is ours: a 500.
      else fail(pooled?.ready ? unreadableError() : error);
    };
    const onExit = (exitCode: number) => {
      fail(pooled?.ready ? unreadableError() : new Error(`the spreadsheet parser exited (${exitCode}) before it started`));
    };
    const onAbort = () => fail(parseCancelledError());
    signal?.addEventListener('abort', onAbort, { once: true });

    const start = () => {
      holdsSlot = true;
      if (finished) {
        releaseSlot();
        return;
      }
      const current = this.take();
      pooled = current;
      current.jobs += 1;
      current.worker.on('message', onMessage);
      current.worker.on('error', onError);
      current.worker.on('exit', onExit);
      const message: ToWorker = {
        type: 'parse',
        credits: readAhead,
        batchRows: BATCH_ROWS,
        batchChars: BATCH_CHARS,
        liveHeapShare: this.options.liveHeapShare ?? LIVE_HEAP_SHARE,
        bufferBytes: (this.options.bufferMb ?? DEFAULT_WORKER_BUFFER_MB) * 1024 * 1024,
        ...job,
      };
      current.worker.postMessage(message, job.content ? [job.content.buffer] : []);
    };
    const entry: QueuedRun = { tag, start, cancel: () => fail(new Error('the spreadsheet parser pool is closed')) };
    if (this.enter(entry)) start();

    return {
      get truncated() {
        return truncated;
      },
      get rowCount() {
        return rowCount;
      },
      get width() {
        return width;
      },
      get queuedBatches() {
        return queue.length;
      },
      get waiting() {
        return !finished && pooled === null;
      },
      stop: () => fail(parseCancelledError()),
      async *batches() {
        for (;;) {
          const batch = queue.shift();
          if (batch) {
            // The consumer took a batch: the worker may send one more.
            if (!finished) pooled?.worker.postMessage({ type: 'more' } satisfies ToWorker);
            yield batch;
            continue;
          }
          if (failure) throw failure;
          if (finished) return;
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
        }
      },
    };
  }
}
