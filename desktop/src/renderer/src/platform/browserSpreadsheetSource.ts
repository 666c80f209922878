/**
 * A file as the shared spreadsheet reader (shared/spreadsheetReaders/reader.ts) reads it in a
 * browser or the desktop's renderer: a Blob with ranged reads, and the browser's
 * DecompressionStream as its inflaters. The spreadsheet worker and the contact import share it.
 */
import type { SpreadsheetInflaters, SpreadsheetSource } from '@shared/spreadsheetReaders/reader';

/** Bytes per read of the file: large reads keep the per-chunk costs small. */
const READ_CHUNK = 4 * 1024 * 1024;

/** A Blob as the shared reader's source. */
export function blobSource(blob: Blob): SpreadsheetSource {
  return {
    size: blob.size,
    read: async (position, length) => new Uint8Array(await blob.slice(position, Math.min(blob.size, position + length)).arrayBuffer()),
    async *chunks(start, end) {
      for (let at = start; at < end; at += READ_CHUNK) yield new Uint8Array(await blob.slice(at, Math.min(end, at + READ_CHUNK)).arrayBuffer());
    },
  };
}

/** Chunks through one of the browser's decompressors. */
function decompress(format: 'deflate-raw' | 'gzip', input: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  const iterator = input[Symbol.asyncIterator]();
  const source = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await iterator.return?.();
    },
  });
  const output = source.pipeThrough(new DecompressionStream(format) as unknown as ReadableWritablePair<Uint8Array, Uint8Array>);
  return {
    async *[Symbol.asyncIterator]() {
      const reader = output.getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          yield value;
        }
      } finally {
        reader.releaseLock();
      }
    },
  };
}

export const browserInflaters: SpreadsheetInflaters = {
  inflateRaw: (input) => decompress('deflate-raw', input),
  gunzip: (input) => decompress('gzip', input),
};
