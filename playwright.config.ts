import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from './tests/chromium';

/** Debian's Chromium (never a downloaded browser), with the flags this closed network needs. */
const chromiumLaunch = { executablePath: CHROMIUM_EXECUTABLE, args: CHROMIUM_ARGS };

/** Three servers on consecutive ports from E2E_PORT (default 3101), so parallel runs can differ. */
const basePort = Number(process.env.E2E_PORT ?? 3101);
/** `gst`: a server with a supplier GSTIN, whose top-ups get GST tax invoices (the main one keeps receipts). */
export const E2E_PORTS = { main: basePort, shortSession: basePort + 1, gst: basePort + 2 } as const;
/** The short-session server ends idle sessions after this many seconds. */
export const E2E_SHORT_IDLE_SECONDS = 12;

export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.test.ts',
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json']],
  outputDir: 'test-results/e2e-artifacts',
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORTS.main}`,
    // A trace records a screencast of every frame: kept for every test, it cost 30 % of the
    // suite's time here (126 s against 89 s on the same files). A test that fails on CI runs again
    // with a trace; `npx playwright test --trace on` records one locally.
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
    launchOptions: chromiumLaunch,
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], launchOptions: chromiumLaunch } }],
  webServer: [
    {
      command: `node scripts/e2e-server.mjs ${E2E_PORTS.main} 600`,
      url: `http://127.0.0.1:${E2E_PORTS.main}/api/health`,
      reuseExistingServer: false,
      timeout: 180_000,
      stdout: 'pipe',
    },
    {
      command: `node scripts/e2e-server.mjs ${E2E_PORTS.shortSession} ${E2E_SHORT_IDLE_SECONDS}`,
      url: `http://127.0.0.1:${E2E_PORTS.shortSession}/api/health`,
      reuseExistingServer: false,
      timeout: 180_000,
      stdout: 'pipe',
    },
    {
      command: `node scripts/e2e-server.mjs ${E2E_PORTS.gst} 600 gst`,
      url: `http://127.0.0.1:${E2E_PORTS.gst}/api/health`,
      reuseExistingServer: false,
      timeout: 180_000,
      stdout: 'pipe',
    },
  ],
});
