/**
 * A spreadsheet parse worker (see parseWorkerPool.ts): reads one upload at a time and sends its rows
 * back in batches, waiting for credit from the main thread before each one.
 */
import { constants as perfConstants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import v8 from 'node:v8';
import { parentPort } from 'node:worker_threads';
import { messages } from '@shared/messages';
import { AppError, ValidationError } from '../errors';
import { heavyFileError, type FromWorker, type ToWorker, type WorkerAppError } from './parseWorkerPool';
import { fileSheetRows, isLibraryFailure, sheetRows } from './read';

const port = parentPort;
if (!port) throw new Error('parseWorker.ts runs only as a worker thread');

const send = (message: FromWorker) => port.postMessage(message);

/**
 * Near its heap cap V8 collects again and again before it gives up, for many seconds with the
 * millions of small objects a shared-strings bomb makes. What is still live after a full collection
 * is what the parse really holds: past the job's share of the cap, the file is refused at once.
 */
const heapLimit = v8.getHeapStatistics().heap_size_limit;
let liveHeapLimit = Number.POSITIVE_INFINITY;
/**
 * `resourceLimits` bound only the V8 heap: Buffers and other ArrayBuffers (a workbook read whole,
 * inflated zip data) live outside it, so the worker bounds them itself. `arrayBuffers` counts this
 * thread's own allocations, not the process's.
 */
let bufferLimit = Number.POSITIVE_INFINITY;
let refused = false;

function refuseHeavy(): void {
  if (refused) return;
  refused = true;
  liveHeapLimit = Number.POSITIVE_INFINITY;
  bufferLimit = Number.POSITIVE_INFINITY;
  send({ type: 'failed', error: asWorkerError(heavyFileError()), reusable: false });
}

function buffersTooLarge(): boolean {
  return process.memoryUsage().arrayBuffers > bufferLimit;
}

new PerformanceObserver((list) => {
  if (buffersTooLarge()) {
    refuseHeavy();
    return;
  }
  const major = list.getEntries().some((entry) => (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === perfConstants.NODE_PERFORMANCE_GC_MAJOR);
  if (major && v8.getHeapStatistics().used_heap_size > liveHeapLimit) refuseHeavy();
}).observe({ entryTypes: ['gc'] });

let credits = 0;
let creditArrived: (() => void) | null = null;

async function creditForOneBatch(): Promise<void> {
  while (credits === 0) {
    await new Promise<void>((resolve) => {
      creditArrived = resolve;
    });
  }
  credits -= 1;
}

function asWorkerError(error: unknown): WorkerAppError {
  const appError = error instanceof AppError ? error : ValidationError('file', messages.sending.fileUnreadable);
  return { status: appError.status, code: appError.code, message: appError.message, field: appError.field, details: appError.details };
}

async function parse(job: Extract<ToWorker, { type: 'parse' }>): Promise<void> {
  credits = job.credits;
  liveHeapLimit = heapLimit * job.liveHeapShare;
  bufferLimit = job.bufferBytes;
  refused = false;
  const rows = job.content
    ? sheetRows(Buffer.from(job.content.buffer, job.content.byteOffset, job.content.byteLength), job.kind, job.limits)
    : fileSheetRows(job.file, job.kind, job.limits, job.bufferBytes);
  let batch: string[][] = [];
  let batchChars = 0;
  let totalChars = 0;
  let rowCount = 0;
  let width = 0;
  const sampleRows = job.sampleRows ?? Number.POSITIVE_INFINITY;
  const flush = async () => {
    await creditForOneBatch();
    send({ type: 'rows', rows: batch });
    batch = [];
    batchChars = 0;
  };
  try {
    for (;;) {
      const next = await rows.next();
      if (refused) return;
      if (next.done) {
        if (batch.length > 0) await flush();
        liveHeapLimit = Number.POSITIVE_INFINITY;
        bufferLimit = Number.POSITIVE_INFINITY;
        send({ type: 'done', truncated: next.value.truncated, rows: rowCount, width });
        return;
      }
      rowCount += 1;
      // Between collections too: a parser may fill buffers without making garbage.
      if (rowCount % 1_000 === 0 && buffersTooLarge()) throw heavyFileError();
      width = Math.max(width, next.value.length);
      // Past the sample only the count and the width are wanted (a resumable upload's summary).
      if (rowCount > sampleRows) continue;
      const row = job.firstColumnOnly ? [next.value[0] ?? ''] : next.value;
      // Cells holding one shared string are one string here but a copy each once posted: bound
      // what crosses, or a small workbook could fill the main thread with copies.
      let chars = 0;
      for (const cell of row) chars += cell.length;
      totalChars += chars;
      if (totalChars > job.limits.maxTotalChars) throw heavyFileError();
      batch.push(row);
      batchChars += chars;
      if (batch.length >= job.batchRows || batchChars >= job.batchChars) await flush();
    }
  } catch (error) {
    if (refused) return;
    liveHeapLimit = Number.POSITIVE_INFINITY;
    bufferLimit = Number.POSITIVE_INFINITY;
    // sheetRows turns the parser libraries' own errors into "unreadable" and marks them so: a
    // stream that failed may still fire later, so that worker is not given another file.
    send({ type: 'failed', error: asWorkerError(error), reusable: error instanceof AppError && !isLibraryFailure(error) });
  }
}

port.on('message', (message: ToWorker) => {
  if (message.type === 'more') {
    credits += 1;
    const resolve = creditArrived;
    creditArrived = null;
    resolve?.();
    return;
  }
  void parse(message);
});
send({ type: 'ready' });
