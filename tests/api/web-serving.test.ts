import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDirectory } from '../../scripts/precompress.mjs';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The bytes as sent, before any decoding. */
  body: Buffer;
}

/** node:http rather than fetch: fetch decodes bodies itself, and these tests are about the encoding. */
function rawRequest(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end();
  });
}

function decoded(response: RawResponse): string {
  const encoding = response.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(response.body).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(response.body).toString('utf8');
  return response.body.toString('utf8');
}

function varyNames(response: RawResponse): string[] {
  return String(response.headers.vary ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase());
}

/** Large enough to be compressed (scripts/precompress.mjs skips tiny files). */
const SCRIPT = `export const greeting = ${JSON.stringify('namaste '.repeat(400))};\nconsole.log(greeting);\n`;
const STYLES = `.card { padding: 1rem; }\n${'.row { display: flex; gap: 0.5rem; }\n'.repeat(60)}`;
const INDEX = `<!doctype html><html><head><title>Sandesh fixture</title><script type="module" src="/assets/index-abc123.js"></script></head><body>${'<div id="root"></div>'.repeat(40)}</body></html>`;
/** What the build prerenders for `/` (vite.web.config.mts). */
const LANDING = INDEX.replace('<div id="root"></div>', '<div id="root"><h1 id="hero-heading">WhatsApp messages</h1></div>');

/**
 * How the server answers the built web app. The build folder is a small fixture made
 * here and precompressed by the same module the vite build uses, so no full build is needed.
 */
describe.skipIf(postgresUnavailable)('serving the web app', () => {
  let server: TestServer;
  let webDir: string;
  beforeAll(async () => {
    webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandesh-web-'));
    fs.mkdirSync(path.join(webDir, 'assets'));
    fs.writeFileSync(path.join(webDir, 'index.html'), INDEX);
    fs.writeFileSync(path.join(webDir, 'landing.html'), LANDING);
    fs.writeFileSync(path.join(webDir, 'assets', 'index-abc123.js'), SCRIPT);
    fs.writeFileSync(path.join(webDir, 'assets', 'index-abc123.js.map'), '{"version":3,"sources":["../src/secret.ts"]}');
    fs.writeFileSync(path.join(webDir, 'assets', 'index-def456.css'), STYLES);
    fs.writeFileSync(path.join(webDir, 'assets', 'tiny-0a1b2c.js'), 'export {};\n');
    fs.writeFileSync(path.join(webDir, 'robots.txt'), 'User-agent: *\nAllow: /\n');
    const totals = precompressDirectory(webDir);
    expect(totals.files).toBe(4);
    server = await startTestServer({ WEB_DIST_DIR: webDir });
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  it('writes brotli and gzip copies at build, and none for files too small to gain', () => {
    for (const file of ['index.html', 'assets/index-abc123.js', 'assets/index-def456.css']) {
      expect(fs.existsSync(path.join(webDir, `${file}.br`))).toBe(true);
      expect(fs.existsSync(path.join(webDir, `${file}.gz`))).toBe(true);
    }
    expect(fs.existsSync(path.join(webDir, 'assets/tiny-0a1b2c.js.br'))).toBe(false);
    expect(fs.existsSync(path.join(webDir, 'assets/index-abc123.js.map.br'))).toBe(false);
  });

  it('prefers brotli, then gzip, by Accept-Encoding, with the original Content-Type and Vary', async () => {
    const url = `${server.url}/assets/index-abc123.js`;
    const cases: [string, string | undefined][] = [
      ['gzip, deflate, br, zstd', 'br'],
      ['br', 'br'],
      ['gzip', 'gzip'],
      ['gzip, deflate', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['identity', undefined],
      ['', undefined],
    ];
    for (const [acceptEncoding, expected] of cases) {
      const response = await rawRequest(url, acceptEncoding ? { 'Accept-Encoding': acceptEncoding } : {});
      expect(response.status, acceptEncoding).toBe(200);
      expect(response.headers['content-encoding'], acceptEncoding).toBe(expected);
      expect(response.headers['content-type']).toMatch(/^(text|application)\/javascript/);
      expect(varyNames(response)).toContain('accept-encoding');
      expect(decoded(response)).toBe(SCRIPT);
      expect(Number(response.headers['content-length'])).toBe(response.body.length);
      if (expected) expect(response.body.length).toBeLessThan(Buffer.byteLength(SCRIPT));
    }
    const styles = await rawRequest(`${server.url}/assets/index-def456.css`, { 'Accept-Encoding': 'gzip, br' });
    expect(styles.headers['content-encoding']).toBe('br');
    expect(styles.headers['content-type']).toMatch(/^text\/css/);
    expect(decoded(styles)).toBe(STYLES);
  });

  it('serves a file without a compressed copy as it is', async () => {
    const response = await rawRequest(`${server.url}/assets/tiny-0a1b2c.js`, { 'Accept-Encoding': 'br, gzip' });
    expect(response.status).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body.toString('utf8')).toBe('export {};\n');
  });

  it('lets browsers keep hashed assets for a year, and revalidate anything else', async () => {
    for (const asset of ['/assets/index-abc123.js', '/assets/index-def456.css', '/assets/tiny-0a1b2c.js']) {
      const response = await rawRequest(`${server.url}${asset}`, { 'Accept-Encoding': 'br' });
      expect(response.headers['cache-control'], asset).toBe('public, max-age=31536000, immutable');
    }
    const robots = await rawRequest(`${server.url}/robots.txt`);
    expect(robots.status).toBe(200);
    expect(robots.headers['cache-control']).not.toContain('immutable');
  });

  it('never lets index.html be cached without revalidation, by name and as the client-route fallback', async () => {
    for (const route of ['/index.html', '/landing.html', '/user/dashboard', '/admin/users/5/settings', '/no/such/page']) {
      const response = await rawRequest(`${server.url}${route}`, { 'Accept-Encoding': 'gzip, deflate, br' });
      expect(response.status, route).toBe(200);
      expect(response.headers['cache-control'], route).toBe('no-cache');
      expect(response.headers['content-type'], route).toMatch(/^text\/html/);
      expect(response.headers['content-encoding'], route).toBe('br');
      expect(varyNames(response), route).toContain('accept-encoding');
      expect(decoded(response), route).toBe(INDEX);
    }
    const plain = await rawRequest(`${server.url}/user/wallet`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString('utf8')).toBe(INDEX);
  });

  it('answers / with the prerendered landing page, compressed and never cached without revalidation', async () => {
    const response = await rawRequest(`${server.url}/`, { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(response.status).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['content-encoding']).toBe('br');
    expect(varyNames(response)).toContain('accept-encoding');
    expect(decoded(response)).toBe(LANDING);
    const gzipped = await rawRequest(`${server.url}/`, { 'Accept-Encoding': 'gzip' });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(decoded(gzipped)).toBe(LANDING);
  });

  it('answers HEAD with the headers of GET', async () => {
    const response = await rawRequest(`${server.url}/assets/index-abc123.js`, { 'Accept-Encoding': 'gzip' }, 'HEAD');
    expect(response.status).toBe(200);
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.body.length).toBe(0);
  });

  it('never serves source maps or the precompressed copies by name', async () => {
    for (const file of ['/assets/index-abc123.js.map', '/assets/index-abc123.js.br', '/assets/index-abc123.js.gz', '/index.html.br']) {
      const response = await rawRequest(`${server.url}${file}`, { 'Accept-Encoding': 'br, gzip' });
      expect(response.status, file).toBe(404);
      expect(response.headers['content-encoding'], file).toBeUndefined();
      expect(response.body.toString('utf8')).not.toContain('secret.ts');
    }
  });

  it('answers a missing asset with 404, not the app, and without the long cache', async () => {
    const response = await rawRequest(`${server.url}/assets/missing-000000.js`, { 'Accept-Encoding': 'br' });
    expect(response.status).toBe(404);
    expect(response.headers['cache-control']).toBeUndefined();
  });
});
