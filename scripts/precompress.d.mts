/** Types of scripts/precompress.mjs (a plain module so the build and `npm start` run it without tsx). */
export interface PrecompressTotals {
  files: number;
  bytes: number;
  brotliBytes: number;
  gzipBytes: number;
}
export function brotli(bytes: Uint8Array): Buffer;
export function gzip(bytes: Uint8Array): Buffer;
export function precompressDirectory(directory: string): PrecompressTotals;
