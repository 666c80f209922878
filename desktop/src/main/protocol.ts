/**
 * The `app://sandesh/...` protocol that serves the built renderer (out/renderer) in production.
 * `resolveAppRequest` is a pure request -> file decision (the security-relevant part, unit-tested
 * with traversal attempts); `registerAppProtocol` is the thin Electron glue around it.
 */
import { readFile } from 'node:fs/promises';
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { CustomScheme, Protocol } from 'electron';
import { DESKTOP_APP_HOST, DESKTOP_APP_SCHEME } from '@shared/desktop';

/**
 * Privileges for the `app` scheme, registered before `ready`: `standard` gives it real origins and
 * relative URL resolution, `secure` makes it a secure context (like https), `supportFetchAPI` and
 * `corsEnabled` let the renderer's module scripts and fetches load from it.
 */
export const APP_SCHEME_PRIVILEGES: CustomScheme = {
  scheme: DESKTOP_APP_SCHEME,
  privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true },
};

export const INDEX_FILE = 'index.html';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.wasm': 'application/wasm',
};

/** Content type by file extension; unknown types are served as opaque bytes. */
export function contentTypeFor(filePath: string): string {
  return CONTENT_TYPES[path.extname(filePath).toLowerCase()] ?? 'application/octet-stream';
}

export type AppRequestResolution =
  | { ok: true; filePath: string; contentType: string }
  | { ok: false; status: 400 | 403 | 404 | 405; reason: string };

/** The file-system questions the resolver asks; injectable so tests can probe edge cases. */
export interface FileProbe {
  /** True when `filePath` exists and is a regular file (after following links). */
  isFile(filePath: string): boolean;
  /** The canonical path (links resolved), used to catch links pointing out of the root. */
  realpath(filePath: string): string;
}

export const nodeFileProbe: FileProbe = {
  isFile(filePath) {
    try {
      return statSync(filePath).isFile();
    } catch {
      return false;
    }
  },
  realpath: (filePath) => realpathSync(filePath),
};

function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * Maps an `app://sandesh/<path>` request to a file under `rootDir`.
 *
 * - Only the app scheme and host, only GET/HEAD.
 * - The path is percent-decoded once, then refused (403) if it holds `..` segments, backslashes
 *   (path separators on Windows), NUL bytes or a drive letter; the joined result must still lie
 *   inside the root, and so must its real path (a link cannot lead out).
 * - `/` serves index.html; an unknown path whose last segment has no extension also serves
 *   index.html (client-side routes like `/user/dashboard`); an unknown file with an extension is
 *   a 404 so that a missing asset is not answered with HTML.
 */
export function resolveAppRequest(
  requestUrl: string,
  rootDir: string,
  options: { method?: string; probe?: FileProbe } = {},
): AppRequestResolution {
  const method = (options.method ?? 'GET').toUpperCase();
  const probe = options.probe ?? nodeFileProbe;
  if (method !== 'GET' && method !== 'HEAD') {
    return { ok: false, status: 405, reason: 'method not allowed' };
  }

  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return { ok: false, status: 400, reason: 'invalid URL' };
  }
  if (url.protocol !== `${DESKTOP_APP_SCHEME}:` || url.host !== DESKTOP_APP_HOST) {
    return { ok: false, status: 404, reason: 'unknown host' };
  }

  let decoded: string;
  try {
    decoded = decodeURIComponent(url.pathname);
  } catch {
    return { ok: false, status: 400, reason: 'malformed percent-encoding' };
  }
  if (decoded.includes('\0') || decoded.includes('\\')) {
    return { ok: false, status: 403, reason: 'forbidden character in path' };
  }
  const segments = decoded.split('/').filter((segment) => segment.length > 0);
  if (segments.some((segment) => segment === '..' || segment === '.')) {
    return { ok: false, status: 403, reason: 'dot segment in path' };
  }
  // `C:` at the start would make path.join/resolve treat the rest as another drive on Windows.
  if (segments.some((segment) => /^[A-Za-z]:/.test(segment))) {
    return { ok: false, status: 403, reason: 'drive letter in path' };
  }

  const root = path.resolve(rootDir);
  // Joining the segments (never resolving the raw path) keeps `//etc/passwd` inside the root.
  const candidate = segments.length === 0 ? path.join(root, INDEX_FILE) : path.join(root, ...segments);
  if (!isInside(root, candidate)) {
    return { ok: false, status: 403, reason: 'path outside the renderer root' };
  }

  const serve = (filePath: string): AppRequestResolution => {
    let realRoot: string;
    let realFile: string;
    try {
      realRoot = probe.realpath(root);
      realFile = probe.realpath(filePath);
    } catch {
      return { ok: false, status: 404, reason: 'not found' };
    }
    if (!isInside(realRoot, realFile)) {
      return { ok: false, status: 403, reason: 'link leads outside the renderer root' };
    }
    return { ok: true, filePath, contentType: contentTypeFor(filePath) };
  };

  if (probe.isFile(candidate)) return serve(candidate);

  const last = segments.at(-1) ?? '';
  if (path.extname(last) === '') {
    const index = path.join(root, INDEX_FILE);
    if (probe.isFile(index)) return serve(index);
  }
  return { ok: false, status: 404, reason: 'not found' };
}

/** Headers every app:// response carries, whatever the file. */
export function appResponseHeaders(contentType: string, contentSecurityPolicy: string): Record<string, string> {
  return {
    'Content-Type': contentType,
    'Content-Security-Policy': contentSecurityPolicy,
    'X-Content-Type-Options': 'nosniff',
    // The bundle is rebuilt with each release; index.html must never be served stale.
    'Cache-Control': 'no-cache',
  };
}

/**
 * Answers one request: resolve, read, wrap in a Response. Separate from `registerAppProtocol` so
 * that tests (and the renderer test's local server) can exercise the exact serving logic.
 */
export async function serveAppRequest(
  request: { url: string; method: string },
  rootDir: string,
  getContentSecurityPolicy: () => Promise<string>,
): Promise<Response> {
  const resolution = resolveAppRequest(request.url, rootDir, { method: request.method });
  if (!resolution.ok) {
    return new Response(null, { status: resolution.status });
  }
  try {
    const body = request.method.toUpperCase() === 'HEAD' ? null : await readFile(resolution.filePath);
    const headers = appResponseHeaders(resolution.contentType, await getContentSecurityPolicy());
    return new Response(body, { status: 200, headers });
  } catch {
    return new Response(null, { status: 500 });
  }
}

/** Installs the `app` protocol handler on a session's protocol object (after `ready`). */
export function registerAppProtocol(
  protocol: Pick<Protocol, 'handle'>,
  rootDir: string,
  getContentSecurityPolicy: () => Promise<string>,
): void {
  protocol.handle(DESKTOP_APP_SCHEME, (request) => serveAppRequest(request, rootDir, getContentSecurityPolicy));
}
