/**
 * A spreadsheet file on disk read row by row in Node (the desktop's parse worker thread): the
 * file and Node's zlib handed to the one shared reader (shared/spreadsheetReaders/reader.ts),
 * which decides the kind, checks a workbook's zip, and turns cells into text by its one rule.
 */
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { createGunzip, createInflateRaw } from 'node:zlib';
import { messages } from '@shared/messages';
import { type RowSink } from '@shared/spreadsheetReaders/csv';
import { type LocalZipLimits } from '@shared/spreadsheetReaders/files';
import {
  readSpreadsheetBatches,
  spreadsheetSourceKind,
  SpreadsheetRefusal,
  type ReadableSpreadsheetKind,
  type SpreadsheetBatch,
  type SpreadsheetInflaters,
  type SpreadsheetSource,
} from '@shared/spreadsheetReaders/reader';

export { DEFAULT_MAX_COLUMNS, type ReadableSpreadsheetKind } from '@shared/spreadsheetReaders/reader';

export interface SpreadsheetReadOptions {
  /** Each row's cells (trimmed, trailing empty cells dropped: [] for an empty row) and its line in the file. */
  onRow: RowSink;
  /** Bytes of the file read so far (compressed bytes for gzip and .xlsx), for progress. */
  onBytes?: (bytes: number, totalBytes: number) => void;
  /**
   * Awaited after each chunk's rows: a caller writing the rows out waits here for its output to
   * drain, so a slow disk slows the read instead of piling rows up in memory.
   */
  afterChunk?: () => Promise<void> | void;
  signal?: AbortSignal;
  zipLimits?: LocalZipLimits;
  /** Columns a row may fill (Excel's own limit is 16,384). */
  maxColumns?: number;
}

/** Read size of the file streams: large reads keep the per-chunk costs small. */
const READ_CHUNK = 1024 * 1024;

/** Errors that carry a catalogue text (what the bridge shows the user); anything else is "unreadable". */
const catalogueErrors = new WeakSet<Error>();

/** An Error whose message is a catalogue text, marked as such. */
export function spreadsheetError(message: string): Error {
  const error = new Error(message);
  catalogueErrors.add(error);
  return error;
}

export function isSpreadsheetError(error: unknown): error is Error {
  return error instanceof SpreadsheetRefusal || (error instanceof Error && catalogueErrors.has(error));
}

/** A refusal as the bridge passes it on: its catalogue text, the same words the server answers. */
function desktopRefusal(refusal: SpreadsheetRefusal): Error {
  return spreadsheetError(refusal.message);
}

/** A file on disk as the shared reader's source. */
export async function fileSource(path: string): Promise<SpreadsheetSource> {
  const { size } = await stat(path);
  return {
    size,
    async read(position, length) {
      const file = await open(path, 'r');
      try {
        const buffer = Buffer.alloc(Math.max(0, Math.min(length, size - position)));
        const { bytesRead } = await file.read(buffer, 0, buffer.length, position);
        return buffer.subarray(0, bytesRead);
      } finally {
        await file.close();
      }
    },
    chunks(start, end) {
      if (end <= start) return Readable.from([]);
      return createReadStream(path, { start, end: end - 1, highWaterMark: READ_CHUNK });
    },
  };
}

function through(input: AsyncIterable<Uint8Array>, transform: NodeJS.ReadWriteStream): AsyncIterable<Uint8Array> {
  const source = Readable.from(input, { objectMode: false });
  source.once('error', (error) => (transform as unknown as Readable).destroy(error));
  return source.pipe(transform) as unknown as AsyncIterable<Uint8Array>;
}

/** Node's zlib as the shared reader's inflaters. */
export const nodeInflaters: SpreadsheetInflaters = {
  inflateRaw: (input) => through(input, createInflateRaw({ chunkSize: 512 * 1024 })),
  gunzip: (input) => through(input, createGunzip({ chunkSize: 256 * 1024 })),
};

/** The kind of the file at `path` by its first bytes; refuses what cannot be read with the catalogue's words. */
export async function spreadsheetKind(path: string, filename = path): Promise<ReadableSpreadsheetKind> {
  try {
    return await spreadsheetSourceKind(await fileSource(path), filename);
  } catch (error) {
    if (error instanceof SpreadsheetRefusal) throw desktopRefusal(error);
    throw spreadsheetError(messages.spreadsheets.unreadable);
  }
}

/**
 * Reads every row of the file's first sheet into `onRow`. Answers the kind it read. Throws an
 * Error with a catalogue text for a file it cannot read; the caller's own errors (a mapping it
 * refuses, a full disk) pass through as they are.
 */
export async function readSpreadsheet(path: string, options: SpreadsheetReadOptions): Promise<ReadableSpreadsheetKind> {
  let source: SpreadsheetSource;
  try {
    source = await fileSource(path);
  } catch {
    throw spreadsheetError(messages.spreadsheets.unreadable);
  }
  const batches = readSpreadsheetBatches(source, nodeInflaters, { signal: options.signal, zipLimits: options.zipLimits, maxColumns: options.maxColumns, filename: path });
  try {
    for (;;) {
      let next: IteratorResult<SpreadsheetBatch, ReadableSpreadsheetKind>;
      try {
        next = await batches.next();
      } catch (error) {
        if (error instanceof SpreadsheetRefusal) throw desktopRefusal(error);
        throw spreadsheetError(messages.spreadsheets.unreadable);
      }
      if (next.done) return next.value;
      const batch = next.value;
      options.onBytes?.(batch.bytes, batch.totalBytes);
      for (let i = 0; i < batch.rows.length; i += 1) options.onRow(batch.rows[i] ?? [], batch.lines[i] ?? 0);
      await options.afterChunk?.();
    }
  } finally {
    // A caller's error mid-file stops the read (and closes its streams).
    await batches.return('csv').catch(() => undefined);
  }
}
