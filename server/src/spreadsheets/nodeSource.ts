/**
 * The shared spreadsheet reader's Node side for the server: a file on disk or an upload in memory
 * as its byte source, and Node's zlib as its inflaters.
 */
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { createGunzip, createInflateRaw } from 'node:zlib';
import type { SpreadsheetInflaters, SpreadsheetSource } from '@shared/spreadsheetReaders/reader';

/** Read size of the file streams: large reads keep the per-chunk costs small. */
const READ_CHUNK = 1024 * 1024;

/** A file on disk, read in ranges (the zip directory, headers) and streamed (the sheet, a CSV). */
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

function through(input: AsyncIterable<Uint8Array>, transform: NodeJS.ReadWriteStream & { destroy(error?: Error): void }): AsyncIterable<Uint8Array> {
  const source = Readable.from(input, { objectMode: false });
  // pipe() does not pass errors on: a failing read must end the inflate.
  source.once('error', (error) => transform.destroy(error));
  return source.pipe(transform) as unknown as AsyncIterable<Uint8Array>;
}

export const nodeInflaters: SpreadsheetInflaters = {
  inflateRaw: (input) => through(input, createInflateRaw({ chunkSize: 512 * 1024 })),
  gunzip: (input) => through(input, createGunzip({ chunkSize: 256 * 1024 })),
};
