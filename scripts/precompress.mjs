// Writes a brotli (.br) and a gzip (.gz) copy beside each text file of a built web app, so the
// server answers compressed bytes without compressing on every request (server/src/middleware/webApp.ts).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** Text formats worth compressing. Source maps are never served, images and fonts are already compressed. */
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.svg', '.json', '.txt', '.xml', '.webmanifest']);

/** Below this a response fits one packet anyway and the copies are not worth their files. */
const MIN_BYTES = 512;

function* filesUnder(directory) {
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) yield* filesUnder(full);
    else if (entry.isFile()) yield full;
  }
}

export function brotli(bytes) {
  return brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    },
  });
}

export function gzip(bytes) {
  return gzipSync(bytes, { level: constants.Z_BEST_COMPRESSION });
}

/**
 * Compresses every compressible file under `directory` (both encodings, best compression: this
 * runs once per build). A copy that would not be smaller is not written.
 * @returns {{ files: number, bytes: number, brotliBytes: number, gzipBytes: number }}
 */
export function precompressDirectory(directory) {
  const totals = { files: 0, bytes: 0, brotliBytes: 0, gzipBytes: 0 };
  for (const file of filesUnder(directory)) {
    if (!COMPRESSIBLE.has(path.extname(file))) continue;
    const bytes = readFileSync(file);
    if (bytes.length < MIN_BYTES) continue;
    const brotliBytes = brotli(bytes);
    const gzipBytes = gzip(bytes);
    if (brotliBytes.length < bytes.length) writeFileSync(`${file}.br`, brotliBytes);
    if (gzipBytes.length < bytes.length) writeFileSync(`${file}.gz`, gzipBytes);
    totals.files += 1;
    totals.bytes += bytes.length;
    totals.brotliBytes += Math.min(brotliBytes.length, bytes.length);
    totals.gzipBytes += Math.min(gzipBytes.length, bytes.length);
  }
  return totals;
}
