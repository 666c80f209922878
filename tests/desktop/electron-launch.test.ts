/**
 * Launches the built desktop app with Playwright's Electron driver, when an Electron binary is
 * installed. On machines installed with ELECTRON_SKIP_BINARY_DOWNLOAD (ours: the download host is
 * unreachable) `require('electron')` has no binary to point at, and the test skips saying so.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { _electron as electron } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import type { BridgeResult, DesktopBridge } from '@shared/desktop';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
const SKIP_MESSAGE = 'Electron binary not installed (ELECTRON_SKIP_BINARY_DOWNLOAD): launch test skipped';

/** The Electron executable, or null when the npm package was installed without its binary. */
function electronBinary(): string | null {
  try {
    // The package's main export is the executable path; it throws when path.txt is missing.
    const executable: unknown = createRequire(import.meta.url)('electron');
    return typeof executable === 'string' && existsSync(executable) ? executable : null;
  } catch {
    return null;
  }
}

/** process.env without unset entries: Playwright's Electron `env` takes strings only. */
function definedEnv(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

const executablePath = electronBinary();
// Electron needs a display on Linux; `xvfb-run -a npm run test:desktop` provides one headless.
const NO_DISPLAY_MESSAGE = 'No display (DISPLAY/WAYLAND_DISPLAY unset; run under xvfb-run -a): launch test skipped';
const noDisplay = process.platform === 'linux' && !process.env['DISPLAY'] && !process.env['WAYLAND_DISPLAY'];
const skipReason = !executablePath ? SKIP_MESSAGE : noDisplay ? NO_DISPLAY_MESSAGE : null;
if (skipReason) console.warn(`[electron-launch.test] ${skipReason}`);

describe('desktop app launch', () => {
  if (!executablePath || skipReason) {
    it.skip(skipReason ?? SKIP_MESSAGE, () => undefined);
    return;
  }

  it('opens the app from app://sandesh with no Node.js in the page, the bridge and the CSP', async () => {
    if (!existsSync(path.join(projectRoot, 'out', 'main', 'index.js'))) {
      const build = spawnSync(process.execPath, [path.join(projectRoot, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build', '--config', 'desktop/electron.vite.config.ts'], { cwd: projectRoot, stdio: 'inherit' });
      expect(build.status, 'electron-vite build').toBe(0);
    }
    const userData = await mkdtemp(path.join(tmpdir(), 'sandesh-electron-'));
    const app = await electron.launch({
      executablePath,
      // Chromium refuses to start its process sandbox as root (CI containers); the page-level
      // isolation checked below does not depend on it.
      args: [projectRoot, `--user-data-dir=${userData}`, ...(process.getuid?.() === 0 ? ['--no-sandbox'] : [])],
      env: { ...definedEnv(), SANDESH_SERVER_URL: 'http://127.0.0.1:3999' },
    });
    try {
      const page = await app.firstWindow();
      await page.waitForLoadState('domcontentloaded');
      expect(page.url()).toMatch(/^app:\/\/sandesh\//);

      const seen = await page.evaluate(async () => {
        // This file is type-checked as Node code (no DOM lib): describe the page globals it reads.
        const scope = globalThis as unknown as {
          desktop?: DesktopBridge;
          require?: unknown;
          process?: unknown;
          location: { href: string };
        };
        const serverUrl: BridgeResult<string> | null = scope.desktop ? await scope.desktop.getServerUrl() : null;
        return {
          bridgeMethods: scope.desktop ? Object.keys(scope.desktop).sort() : [],
          hasRequire: typeof scope.require,
          hasProcess: typeof scope.process,
          serverUrl,
          // The protocol handler's headers, fetched through the privileged app:// scheme.
          csp: (await fetch(scope.location.href)).headers.get('content-security-policy'),
        };
      });
      expect(seen.bridgeMethods).toEqual(
        ['clearSessionToken', 'getAppInfo', 'getDeviceId', 'getServerUrl', 'getSessionToken', 'openExternal', 'setServerUrl', 'setSessionToken'],
      );
      expect(seen.hasRequire).toBe('undefined');
      expect(seen.hasProcess).toBe('undefined');
      expect(seen.serverUrl).toEqual({ ok: true, value: 'http://127.0.0.1:3999' });
      expect(seen.csp).toContain("connect-src 'self' http://127.0.0.1:3999");
      expect(seen.csp).toContain("script-src 'self'");
    } finally {
      await app.close();
      await rm(userData, { recursive: true, force: true });
    }
  });
});
