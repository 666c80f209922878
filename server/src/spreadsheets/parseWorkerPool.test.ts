import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { messages } from '@shared/messages';
import { sharedStringsBomb, smallWorkbook } from '../../test/spreadsheetBomb';
import { AppError } from '../errors';
import { ParseWorkerPool } from './parseWorkerPool';
import { DEFAULT_SPREADSHEET_LIMITS, parseSpreadsheet, readSpreadsheet, type SpreadsheetInput } from './read';

/** Polls `check` until it holds, failing after `deadlineMs` (never a fixed wait). */
async function until(check: () => boolean, what: string, deadlineMs = 30_000): Promise<void> {
  const started = performance.now();
  while (!check()) {
    if (performance.now() - started > deadlineMs) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function failure(run: () => Promise<unknown>): Promise<AppError> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error('expected a failure');
}

const csv = (lines: number) => Buffer.from(`Phone,Name\n${Array.from({ length: lines }, (_, i) => `${919800000000 + i},Name ${i}`).join('\n')}\n`);

const pools: ParseWorkerPool[] = [];
function pool(options: ConstructorParameters<typeof ParseWorkerPool>[0]): ParseWorkerPool {
  const created = new ParseWorkerPool(options);
  pools.push(created);
  return created;
}

afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()));
});

// Workers start in seconds on a loaded machine, and a bomb takes a while to fill a heap.
describe('spreadsheet parse workers', { timeout: 120_000 }, () => {
  it('reads a hand-built workbook in a worker and keeps that worker for the next parse', async () => {
    const workers = pool({ memoryMb: 128 });
    const file: SpreadsheetInput = { filename: 'a.xlsx', buffer: await smallWorkbook() };
    expect((await readSpreadsheet(file, {}, { pool: workers })).rows).toEqual([{ Phone: '919876543210' }]);
    expect((await readSpreadsheet({ filename: 'b.csv', buffer: csv(3) }, {}, { pool: workers })).rows).toHaveLength(3);
    expect(workers.stats()).toMatchObject({ started: 1, live: 1, idle: 1 });
    // A check of ours refusing the file leaves the worker fit for reuse...
    const wide = await failure(() => readSpreadsheet({ filename: 'c.csv', buffer: Buffer.from('a,b,c\n1,2,3\n') }, { maxColumns: 2 }, { pool: workers }));
    expect(wide.message).toBe('The file has too many columns (at most 2).');
    expect(workers.stats()).toMatchObject({ started: 1, idle: 1 });
    // ...a parser library's error does not.
    const corrupt = await smallWorkbook({ brokenSheet: true });
    expect((await failure(() => readSpreadsheet({ filename: 'd.xlsx', buffer: corrupt }, {}, { pool: workers }))).message).toBe(messages.sending.fileUnreadable);
    await until(() => workers.stats().live === 1, 'the failed worker ended');
    await readSpreadsheet({ filename: 'e.csv', buffer: csv(1) }, {}, { pool: workers });
    expect(workers.stats().started).toBe(2);
  });

  it('refuses a shared-strings bomb from its zip directory before inflating it, and the worker stays fit', async () => {
    // Each entry is held to a compression ratio: the bomb's shared strings pass it by far, even with
    // incompressible padding that keeps the whole archive under the guard's ratio.
    const workers = pool({ memoryMb: 64 });
    const bomb = await sharedStringsBomb({ inflatedBytes: 40 * 1024 * 1024 });
    const error = await failure(() => readSpreadsheet({ filename: 'bomb.xlsx', buffer: bomb }, {}, { pool: workers }));
    expect([error.status, error.message]).toEqual([400, messages.sending.fileTooLargeUnpacked]);
    expect((await readSpreadsheet({ filename: 'a.csv', buffer: csv(2) }, {}, { pool: workers })).rows).toHaveLength(2);
    expect(workers.stats().started).toBe(1);
  });

  it('refuses a small workbook whose one long shared string would be copied into every cell', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Repeats');
    const long = 'x'.repeat(1_000);
    sheet.addRow(['Phone', 'Note']);
    for (let i = 0; i < 2_000; i += 1) sheet.addRow([919800000000 + i, long]);
    const buffer = Buffer.from(await workbook.xlsx.writeBuffer());
    const workers = pool({ memoryMb: 128 });
    const error = await failure(() => readSpreadsheet({ filename: 'repeats.xlsx', buffer }, { maxTotalChars: 1_000_000 }, { pool: workers }));
    expect([error.status, error.message]).toEqual([413, messages.sending.fileTooHeavy]);
    expect((await readSpreadsheet({ filename: 'repeats.xlsx', buffer }, {}, { pool: workers })).rows).toHaveLength(2_000);
  });

  it('never lets the worker run more than two batches ahead of a slow consumer', async () => {
    const workers = pool({ memoryMb: 128 });
    const run = workers.run({ content: new Uint8Array(csv(60_000)), kind: 'csv', limits: DEFAULT_SPREADSHEET_LIMITS, firstColumnOnly: true });
    let rows = 0;
    let mostQueued = 0;
    for await (const batch of run.batches()) {
      rows += batch.length;
      // A consumer far slower than the parser: without credits the queue would grow to dozens.
      for (let turn = 0; turn < 20; turn += 1) await new Promise((resolve) => setImmediate(resolve));
      mostQueued = Math.max(mostQueued, run.queuedBatches);
    }
    expect(rows).toBe(60_001);
    expect(mostQueued).toBeLessThanOrEqual(2);
    expect(run.truncated).toBe(false);
  });

  it('ends the worker when the consumer stops early or the request goes away', async () => {
    const workers = pool({ memoryMb: 128 });
    const big: SpreadsheetInput = { filename: 'big.csv', buffer: csv(100_000) };
    for await (const row of parseSpreadsheet(big, {}, { pool: workers })) {
      expect(row).toEqual(['Phone', 'Name']);
      break;
    }
    await until(() => workers.stats().live === 0, 'the worker of the abandoned parse ended');

    const gone = new AbortController();
    const rows = parseSpreadsheet(big, {}, { pool: workers, signal: gone.signal })[Symbol.asyncIterator]();
    expect((await rows.next()).value).toEqual(['Phone', 'Name']);
    gone.abort();
    const error = await failure(async () => {
      for (;;) if ((await rows.next()).done) return;
    });
    expect([error.code, error.message]).toEqual(['parse_cancelled', messages.sending.parseCancelled]);
    await until(() => workers.stats().live === 0, 'the worker of the cancelled parse ended');
    // A parse whose request is already gone starts no worker.
    await failure(() => readSpreadsheet(big, {}, { pool: workers, signal: gone.signal }));
    expect(workers.stats().started).toBe(2);
  });

  it('runs at most maxRunning parses at once and queues the rest first in, first out, each saying its place', async () => {
    const workers = pool({ memoryMb: 128, maxRunning: 1 });
    const job = (rows: number) => ({ content: new Uint8Array(csv(rows)), kind: 'csv' as const, limits: DEFAULT_SPREADSHEET_LIMITS, firstColumnOnly: true });
    // The first parse holds the only slot while its batches are not taken (credit-based flow control).
    const first = workers.run(job(20_000), undefined, 1, 'first');
    const second = workers.run(job(3), undefined, undefined, 'second');
    const gone = new AbortController();
    const third = workers.run(job(3), gone.signal, undefined, 'third');
    const fourth = workers.run(job(4), undefined, undefined, 'fourth');
    expect(workers.status('first')).toEqual({ state: 'parsing' });
    expect([second.waiting, third.waiting, fourth.waiting]).toEqual([true, true, true]);
    expect([workers.status('second'), workers.status('third'), workers.status('fourth')]).toEqual([
      { state: 'queued', position: 1 },
      { state: 'queued', position: 2 },
      { state: 'queued', position: 3 },
    ]);
    expect(workers.stats()).toMatchObject({ running: 1, queued: 3, started: 1 });

    // A request that goes away leaves the queue at once, and those behind it move up.
    gone.abort();
    const cancelled = await failure(async () => {
      for await (const batch of third.batches()) expect(batch).toBeUndefined();
    });
    expect(cancelled.code).toBe('parse_cancelled');
    expect(workers.status('fourth')).toEqual({ state: 'queued', position: 2 });

    let firstRows = 0;
    for await (const batch of first.batches()) firstRows += batch.length;
    expect(firstRows).toBe(20_001);
    const rows = async (run: ReturnType<ParseWorkerPool['run']>) => {
      const all: string[][] = [];
      for await (const batch of run.batches()) all.push(...batch);
      return all.length;
    };
    expect(await rows(second)).toBe(4);
    expect(await rows(fourth)).toBe(5);
    expect(workers.stats()).toMatchObject({ running: 0, queued: 0, peakRunning: 1 });
    expect(workers.status('fourth')).toBeNull();
  });
});
