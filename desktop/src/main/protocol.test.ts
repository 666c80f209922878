import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentTypeFor, resolveAppRequest, serveAppRequest, type AppRequestResolution } from './protocol';

let base: string;
let root: string;

beforeAll(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'sandesh-protocol-'));
  root = path.join(base, 'renderer');
  await mkdir(path.join(root, 'assets'), { recursive: true });
  await writeFile(path.join(root, 'index.html'), '<!doctype html><title>Sandesh</title>');
  await writeFile(path.join(root, 'assets', 'index-abc123.js'), 'console.log(1)');
  await writeFile(path.join(root, 'assets', 'index-abc123.css'), 'body{}');
  await writeFile(path.join(root, 'assets', 'logo.svg'), '<svg/>');
  await writeFile(path.join(root, 'assets', 'inter.woff2'), 'font');
  await writeFile(path.join(root, 'assets', 'file with space.json'), '{}');
  // A secret next to the renderer root: every traversal below aims at it.
  await writeFile(path.join(base, 'secret.txt'), 'top secret');
  await symlink(path.join(base, 'secret.txt'), path.join(root, 'assets', 'escape.txt'));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

function resolve(url: string, method?: string): AppRequestResolution {
  return resolveAppRequest(url, root, { method });
}

function expectFile(url: string, relative: string): void {
  const result = resolve(url);
  expect(result, url).toEqual({
    ok: true,
    filePath: path.join(root, relative),
    contentType: contentTypeFor(relative),
  });
}

function expectRefused(url: string, status?: number): void {
  const result = resolve(url);
  expect(result.ok, url).toBe(false);
  if (!result.ok && status !== undefined) expect(result.status, url).toBe(status);
}

describe('resolveAppRequest', () => {
  it('serves index.html for the root', () => {
    expectFile('app://sandesh/', 'index.html');
    expectFile('app://sandesh', 'index.html');
  });

  it('serves existing files with their content types', () => {
    expectFile('app://sandesh/assets/index-abc123.js', 'assets/index-abc123.js');
    expect(resolve('app://sandesh/assets/index-abc123.js')).toMatchObject({
      contentType: 'text/javascript; charset=utf-8',
    });
    expect(resolve('app://sandesh/assets/index-abc123.css')).toMatchObject({ contentType: 'text/css; charset=utf-8' });
    expect(resolve('app://sandesh/assets/logo.svg')).toMatchObject({ contentType: 'image/svg+xml' });
    expect(resolve('app://sandesh/assets/inter.woff2')).toMatchObject({ contentType: 'font/woff2' });
    expect(resolve('app://sandesh/index.html')).toMatchObject({ contentType: 'text/html; charset=utf-8' });
  });

  it('decodes percent-encoded names once', () => {
    expectFile('app://sandesh/assets/file%20with%20space.json', 'assets/file with space.json');
  });

  it('ignores query strings and fragments', () => {
    expectFile('app://sandesh/assets/index-abc123.js?v=2#x', 'assets/index-abc123.js');
  });

  it('falls back to index.html for client-side routes without an extension', () => {
    expectFile('app://sandesh/login', 'index.html');
    expectFile('app://sandesh/user/dashboard', 'index.html');
    expectFile('app://sandesh/admin/users/42/', 'index.html');
    expectFile('app://sandesh/assets', 'index.html');
  });

  it('answers 404 for a missing file with an extension instead of HTML', () => {
    expectRefused('app://sandesh/assets/missing.js', 404);
    expectRefused('app://sandesh/favicon.ico', 404);
  });

  it('refuses other hosts and schemes', () => {
    expectRefused('app://other/index.html', 404);
    expectRefused('https://sandesh/index.html', 404);
    expectRefused('not a url', 400);
  });

  it('refuses methods other than GET and HEAD', () => {
    expect(resolve('app://sandesh/', 'POST')).toMatchObject({ ok: false, status: 405 });
    expect(resolve('app://sandesh/', 'HEAD')).toMatchObject({ ok: true });
  });

  describe('path traversal', () => {
    it('never serves a file outside the root through plain dot segments', () => {
      // The URL parser folds these to /secret.txt, which does not exist inside the root.
      for (const url of ['app://sandesh/../secret.txt', 'app://sandesh/assets/../../secret.txt', 'app://sandesh/%2e%2e/secret.txt', 'app://sandesh/%2E%2E/%2e%2E/secret.txt', 'app://sandesh/.%2e/secret.txt']) {
        expectRefused(url, 404);
      }
    });

    it('refuses encoded slashes and backslashes that would decode to traversal', () => {
      expectRefused('app://sandesh/..%2fsecret.txt', 403);
      expectRefused('app://sandesh/assets/..%2F..%2Fsecret.txt', 403);
      expectRefused('app://sandesh/%2e%2e%2fsecret.txt', 403);
      expectRefused('app://sandesh/..%5csecret.txt', 403);
      expectRefused('app://sandesh/assets%5c..%5c..%5csecret.txt', 403);
    });

    it('keeps absolute paths inside the root', () => {
      // An encoded absolute path is looked up under the root (no such file there): 404.
      expectRefused(`app://sandesh/${encodeURIComponent(path.join(base, 'secret.txt'))}`, 404);
      // `/etc/passwd` and `//etc/passwd` also stay relative to the root; having no extension they
      // get the client-side-route fallback, index.html, and never the system file.
      expectFile('app://sandesh/%2Fetc%2Fpasswd', 'index.html');
      expectFile('app://sandesh//etc/passwd', 'index.html');
      expectRefused('app://sandesh/C:/Windows/win.ini', 403);
      expectRefused('app://sandesh/c%3A%5cWindows%5cwin.ini', 403);
    });

    it('refuses NUL bytes and malformed escapes', () => {
      expectRefused('app://sandesh/index.html%00.js', 403);
      expectRefused('app://sandesh/%E0%A4%A', 400);
    });

    it('refuses a link that leads out of the root', () => {
      expectRefused('app://sandesh/assets/escape.txt', 403);
    });
  });
});

describe('serveAppRequest', () => {
  const csp = async (): Promise<string> => "default-src 'self'";

  it('answers the file with its type, the CSP and nosniff', async () => {
    const response = await serveAppRequest({ url: 'app://sandesh/user/dashboard', method: 'GET' }, root, csp);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe("default-src 'self'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await response.text()).toContain('<title>Sandesh</title>');
  });

  it('answers refused requests with their status and no body', async () => {
    const response = await serveAppRequest({ url: 'app://sandesh/..%2fsecret.txt', method: 'GET' }, root, csp);
    expect(response.status).toBe(403);
    expect(await response.text()).toBe('');
  });
});
