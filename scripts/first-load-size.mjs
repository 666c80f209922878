// The first-load figure: the gzip size of what dist/web/index.html makes a browser
// download before the app can start (its module script, modulepreload links and stylesheets).
// Usage: node scripts/first-load-size.mjs [dist directory]   (default: WEB_OUT_DIR or dist/web)
// Prints `bench web first_load_kb_gzip <value> ceiling 200 ratio <value>`; the vite build and
// `npm run bench` print it too.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzip } from './precompress.mjs';

/** The target: at most this many kB (1,000 bytes) gzip for what index.html loads. */
export const FIRST_LOAD_CEILING_KB = 200;

const TAG = /<(script|link)\b[^>]*>/gi;
const ATTRIBUTE = (name) => new RegExp(`\\b${name}\\s*=\\s*("([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i');

function attribute(tag, name) {
  const match = ATTRIBUTE(name).exec(tag);
  return match ? (match[2] ?? match[3] ?? match[4] ?? '') : null;
}

/** The same-origin files index.html loads at once: module scripts, modulepreloads, stylesheets. */
export function firstLoadFiles(html) {
  const files = [];
  for (const [tag, element] of html.matchAll(TAG)) {
    let reference = null;
    if (element.toLowerCase() === 'script') reference = attribute(tag, 'src');
    else {
      const rel = (attribute(tag, 'rel') ?? '').toLowerCase().split(/\s+/);
      if (rel.includes('modulepreload') || rel.includes('stylesheet')) reference = attribute(tag, 'href');
    }
    if (reference && !/^(?:[a-z]+:)?\/\//i.test(reference) && !reference.startsWith('data:') && !files.includes(reference)) files.push(reference);
  }
  return files;
}

/**
 * Measures a built web app directory.
 * @returns {{ files: { file: string, bytes: number, gzipBytes: number }[], gzipBytes: number, kb: number, ratio: number }}
 */
export function measureFirstLoad(directory) {
  const html = readFileSync(path.join(directory, 'index.html'), 'utf8');
  const files = firstLoadFiles(html).map((reference) => {
    const bytes = readFileSync(path.join(directory, reference.replace(/^\.?\//, '').split(/[?#]/)[0]));
    return { file: reference, bytes: bytes.length, gzipBytes: gzip(bytes).length };
  });
  const gzipBytes = files.reduce((sum, file) => sum + file.gzipBytes, 0);
  const kb = Math.round(gzipBytes / 100) / 10;
  return { files, gzipBytes, kb, ratio: Math.round((kb / FIRST_LOAD_CEILING_KB) * 100) / 100 };
}

/** The bench summary line (same shape as tests/bench's `bench <db> <figure> <value> ceiling <value> ratio <value>`). */
export function firstLoadLine(measurement) {
  return `bench web first_load_kb_gzip ${measurement.kb} ceiling ${FIRST_LOAD_CEILING_KB} ratio ${measurement.ratio}`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const directory = path.resolve(process.argv[2] ?? process.env.WEB_OUT_DIR ?? path.join(root, 'dist/web'));
  const measurement = measureFirstLoad(directory);
  if (process.env.FIRST_LOAD_DETAIL) for (const file of measurement.files) console.log(`  ${file.file}  ${file.bytes} B, ${file.gzipBytes} B gzip`);
  console.log(firstLoadLine(measurement));
}
