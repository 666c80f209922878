/**
 * The built renderer (out/renderer) in desktop mode, in Debian's Chromium, without Electron:
 *
 * - the page is served by the app protocol's own serving code (`serveAppRequest`, with its CSP)
 *   from a local http server standing in for `app://sandesh`;
 * - the built preload (out/preload/index.cjs) runs in the page with a stand-in `electron` module
 *   (preload-shim.ts, shared with renderer-desktop-sheets.test.ts) whose `ipcRenderer.invoke` goes through a Playwright binding to the real `registerDesktopIpc`
 *   listeners, so every `window.desktop` call is answered by the real handlers, the real settings
 *   store (temporary directory) and the real keychain store (Secret Service);
 * - a small stub API server at the configured server URL records what the renderer asks.
 *
 * What Electron itself adds (the app:// scheme, contextIsolation, sandbox) is covered by the unit
 * tests and by electron-launch.test.ts where a binary exists.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import type { IpcMainInvokeEvent } from 'electron';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DESKTOP_APP_ORIGIN } from '@shared/desktop';
import { createDesktopHandlers, registerDesktopIpc } from '../../desktop/src/main/ipc/register';
import { createKeychainStore } from '../../desktop/src/main/keychain';
import { serveAppRequest } from '../../desktop/src/main/protocol';
import { buildContentSecurityPolicy } from '../../desktop/src/main/security';
import { createSettingsStore } from '../../desktop/src/main/settings';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE, chromiumMissingReason } from '../chromium';
import { installPreloadShim, type ShimInvokeEvent } from './preload-shim';
import { secretServiceUnavailableReason, TEST_ENTRY_OPTIONS, TEST_KEYCHAIN_SERVICE } from './secret-service';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
const rendererDir = path.join(projectRoot, 'out', 'renderer');
const preloadFile = path.join(projectRoot, 'out', 'preload', 'index.cjs');

async function skipReason(): Promise<string | null> {
  const noBrowser = chromiumMissingReason();
  if (noBrowser) return noBrowser;
  if (!existsSync(path.join(rendererDir, 'index.html')) || !existsSync(preloadFile)) {
    return 'renderer or preload not built: run `npm run desktop:build` first';
  }
  return secretServiceUnavailableReason();
}

const unavailable = await skipReason();
if (unavailable) console.warn(`[renderer-desktop-mode.test] skipped: ${unavailable}`);

/** A request the stub API server saw. */
interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

const TEST_USER = {
  id: 7,
  name: 'Desk Top',
  email: 'desk@example.in',
  username: 'desktop_user',
  role: 'user',
  phoneNumber: '919876543210',
  creditBalance: 125.5,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
};
const ISSUED_TOKEN = 'issued-desktop-token-0123456789abcdef';

function listen(server: Server): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  });
}

function close(server: Server | undefined): Promise<void> {
  return new Promise((resolve) => (server ? server.close(() => resolve()) : resolve()));
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

describe(`built renderer in desktop mode${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  let settingsDir = '';
  let rendererServer: Server | undefined;
  let apiServer: Server | undefined;
  let rendererOrigin = '';
  let apiOrigin = '';
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  let unregister: () => void = () => undefined;
  const seen: SeenRequest[] = [];
  const bridgeCalls: string[] = [];
  const consoleErrors: string[] = [];
  /** Failed responses of the renderer's own files (the stub API's 401s are expected answers). */
  const failedAppResponses: string[] = [];
  const keychain = createKeychainStore({ service: TEST_KEYCHAIN_SERVICE, entryOptions: TEST_ENTRY_OPTIONS });

  beforeAll(async () => {
    if (unavailable) return;
    settingsDir = await mkdtemp(path.join(tmpdir(), 'sandesh-renderer-'));
    const settings = createSettingsStore({ dir: settingsDir, env: {} });

    // The stub API: answers CORS (the renderer's origin differs, as app://sandesh does in the
    // app), the public config, and a desktop login that issues a bearer token.
    apiServer = createServer((request: IncomingMessage, response: ServerResponse) => {
      void (async () => {
        const body = await readBody(request);
        const url = new URL(request.url ?? '/', 'http://stub');
        seen.push({ method: request.method ?? 'GET', path: url.pathname, headers: request.headers, body });
        const cors = {
          'Access-Control-Allow-Origin': rendererOrigin,
          'Access-Control-Allow-Headers': request.headers['access-control-request-headers'] ?? '',
          'Access-Control-Allow-Methods': 'GET, POST, PUT, DELETE, OPTIONS',
          'Access-Control-Max-Age': '0',
        };
        const json = (status: number, payload: unknown) => {
          response.writeHead(status, { ...cors, 'Content-Type': 'application/json' });
          response.end(JSON.stringify(payload));
        };
        if (request.method === 'OPTIONS') {
          response.writeHead(204, cors);
          response.end();
        } else if (url.pathname === '/api/health') {
          // The offline banner's check (a real server answers it without a session).
          json(200, { status: 'ok', version: 'stub', database: { kind: 'sqlite', version: 'stub' }, uptimeSeconds: 1 });
        } else if (url.pathname === '/api/public-config') {
          json(200, {
            brandName: 'Sandesh Stub Server',
            support: { phone: '+91 00000 00000', email: 'stub@example.in', address: 'Stub' },
            environment: 'test',
            idleTimeoutSeconds: 600,
          });
        } else if (url.pathname === '/api/auth/login' && request.method === 'POST') {
          const isDesktop = request.headers['x-client'] === 'desktop';
          json(200, {
            success: true,
            message: 'Login successful',
            user: TEST_USER,
            idleTimeoutSeconds: 600,
            ...(isDesktop ? { token: ISSUED_TOKEN } : {}),
          });
        } else if (url.pathname === '/api/auth/session') {
          // The start-up check: 200 for a visitor too, with the user when signed in.
          const signedIn = request.headers.authorization === `Bearer ${ISSUED_TOKEN}`;
          json(200, signedIn ? { user: TEST_USER, idleTimeoutSeconds: 600 } : { user: null });
        } else if (request.headers.authorization === `Bearer ${ISSUED_TOKEN}` && url.pathname === '/api/auth/me') {
          json(200, { success: true, user: TEST_USER, idleTimeoutSeconds: 600 });
        } else if (request.headers.authorization === `Bearer ${ISSUED_TOKEN}`) {
          // Signed in, but the stub has no such call: a 404, never a 401, which would sign the
          // renderer out again (a race the sign-in test lost on a loaded machine).
          json(404, { error: 'Not in the stub', code: 'not_found' });
        } else {
          json(401, { error: 'Please log in', code: 'unauthorized' });
        }
      })();
    });
    apiOrigin = await listen(apiServer);
    await settings.setServerUrl(apiOrigin);

    // The renderer, served by the app protocol's code: http://127.0.0.1:<port>/x is answered
    // exactly as app://sandesh/x would be, CSP included.
    rendererServer = createServer((request: IncomingMessage, response: ServerResponse) => {
      void (async () => {
        const appResponse = await serveAppRequest(
          { url: `${DESKTOP_APP_ORIGIN}${request.url ?? '/'}`, method: request.method ?? 'GET' },
          rendererDir,
          async () => buildContentSecurityPolicy(await settings.getServerUrl()),
        );
        response.writeHead(appResponse.status, Object.fromEntries(appResponse.headers));
        response.end(Buffer.from(await appResponse.arrayBuffer()));
      })();
    });
    rendererOrigin = await listen(rendererServer);

    const listeners = new Map<string, (event: IpcMainInvokeEvent, ...args: unknown[]) => Promise<unknown>>();
    unregister = registerDesktopIpc(
      {
        handle: (channel, listener) => void listeners.set(channel, listener),
        removeHandler: (channel) => void listeners.delete(channel),
      },
      createDesktopHandlers({
        keychain,
        settings,
        openExternal: async () => undefined,
        appInfo: { version: '0.1.0', platform: process.platform },
      }),
      // The page's origin plays the part of app://sandesh, as the dev server does in development.
      { extraOrigins: [rendererOrigin] },
    );

    browser = await chromium.launch({
      executablePath: CHROMIUM_EXECUTABLE,
      args: CHROMIUM_ARGS,
    });
    context = await browser.newContext();
    await installPreloadShim(
      context,
      preloadFile,
      (channel) => listeners.get(channel) as ((event: ShimInvokeEvent, ...args: unknown[]) => Promise<unknown>) | undefined,
      (channel) => void bridgeCalls.push(channel),
    );
  });

  afterAll(async () => {
    if (unavailable) return;
    await context?.close();
    await browser?.close();
    unregister();
    await keychain.clearToken(apiOrigin);
    await close(rendererServer);
    await close(apiServer);
    await rm(settingsDir, { recursive: true, force: true });
  });

  let page: Page;
  beforeEach(async (testContext) => {
    if (unavailable) testContext.skip(unavailable);
    seen.length = 0;
    bridgeCalls.length = 0;
    consoleErrors.length = 0;
    failedAppResponses.length = 0;
    if (!context) throw new Error('browser context not started');
    page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(error.message));
    page.on('response', (response) => {
      const url = new URL(response.url());
      // Chromium asks for /favicon.ico on its own; Electron windows do not.
      if (url.origin === rendererOrigin && response.status() >= 400 && url.pathname !== '/favicon.ico') {
        failedAppResponses.push(`${response.status()} ${url.pathname}`);
      }
    });
    testContext.onTestFinished(async ({ task }) => {
      // On failure, what the page said is the quickest clue (a CSP refusal, a bridge error, ...).
      if (task.result?.state === 'fail') {
        console.error('[renderer-desktop-mode.test] page console errors:', consoleErrors);
        console.error('[renderer-desktop-mode.test] failed app responses:', failedAppResponses);
        console.error('[renderer-desktop-mode.test] bridge calls:', bridgeCalls);
        console.error('[renderer-desktop-mode.test] API requests:', seen.map((r) => `${r.method} ${r.path}`));
        console.error('[renderer-desktop-mode.test] page text:', (await page.locator('body').innerText()).slice(0, 500));
      }
      await page.close();
    });
  });

  it('boots in desktop mode, asks the bridge for the server and the session, and shows the login page', async () => {
    await keychain.clearToken(apiOrigin);
    await page.goto(`${rendererOrigin}/#/login`);

    await expect.poll(() => page.getByText('Welcome back').isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await page.getByText('Sign in to your account').isVisible()).toBe(true);
    // The desktop platform uses the HashRouter and the bridge (the web build would do neither).
    expect(new URL(page.url()).hash).toBe('#/login');
    expect(await page.evaluate('typeof window.desktop')).toBe('object');
    expect(bridgeCalls).toContain('settings:get-server-url');
    expect(bridgeCalls).toContain('session:get-token');

    // The public config came from the server URL the bridge answered, marked as a desktop client.
    await expect.poll(() => seen.some((r) => r.method === 'GET' && r.path === '/api/public-config'), { timeout: 10_000 }).toBe(true);
    const configRequest = seen.find((r) => r.method === 'GET' && r.path === '/api/public-config');
    expect(configRequest?.headers['x-client']).toBe('desktop');
    expect(configRequest?.headers.origin).toBe(rendererOrigin);
    await expect.poll(() => page.title()).toBe('Sandesh Stub Server');

    // The app's CSP (connect-src: self + the configured server) let all of that through.
    expect(consoleErrors.filter((text) => /Content Security Policy/i.test(text))).toEqual([]);
    // "Failed to load resource" lines are the favicon and the stub's expected 401s, checked apart.
    expect(consoleErrors.filter((text) => !text.startsWith('Failed to load resource'))).toEqual([]);
    expect(failedAppResponses).toEqual([]);
  });

  it('signs in and keeps the issued token in the OS keychain through the bridge', async () => {
    await keychain.clearToken(apiOrigin);
    await page.goto(`${rendererOrigin}/#/login`);
    await expect.poll(() => page.getByText('Welcome back').isVisible(), { timeout: 15_000 }).toBe(true);

    await page.getByLabel(/username/i).fill(TEST_USER.username);
    await page.getByLabel(/password/i).first().fill('correct horse');
    await page.getByRole('button', { name: /sign in|log in|login/i }).first().click();

    await expect.poll(() => keychain.getToken(apiOrigin), { timeout: 15_000 }).toBe(ISSUED_TOKEN);
    expect(bridgeCalls).toContain('session:set-token');
    const login = seen.find((r) => r.path === '/api/auth/login' && r.method === 'POST');
    expect(login?.headers['x-client']).toBe('desktop');
    // This install's device id, made once in the settings file and read through the bridge.
    const deviceId = await createSettingsStore({ dir: settingsDir, env: {} }).getDeviceId();
    expect(deviceId).toMatch(/^[0-9a-f-]{36}$/);
    expect(login?.headers['x-sandesh-device']).toBe(deviceId);
    expect(bridgeCalls).toContain('settings:get-device-id');
    expect(JSON.parse(login?.body ?? '{}')).toMatchObject({ username: TEST_USER.username });
    await expect.poll(() => new URL(page.url()).hash, { timeout: 10_000 }).toMatch(/^#\/user\//);
  });

  it('sends the token read from the keychain as a bearer token on the next start', async () => {
    await keychain.setToken(apiOrigin, ISSUED_TOKEN);
    // A fresh start: no user cached in this origin's localStorage, so the app must ask the server.
    await page.goto(`${rendererOrigin}/#/login`);
    await page.evaluate('localStorage.clear()');
    await page.goto(`${rendererOrigin}/#/dashboard`);
    await page.reload();

    await expect
      .poll(() => seen.some((r) => r.path === '/api/auth/session' && r.headers.authorization === `Bearer ${ISSUED_TOKEN}`), {
        timeout: 15_000,
      })
      .toBe(true);
    await expect.poll(() => new URL(page.url()).hash, { timeout: 10_000 }).toMatch(/^#\/user\//);
  });
});
