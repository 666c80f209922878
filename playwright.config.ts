import { defineConfig, devices } from '@playwright/test';

/** Debian's Chromium (never a downloaded browser), with the flags this closed network needs. */
const chromiumLaunch = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-dev-shm-usage'],
};

/** Two servers on consecutive ports from E2E_PORT (default 3101), so parallel runs can differ. */
const basePort = Number(process.env.E2E_PORT ?? 3101);
export const E2E_PORTS = { main: basePort, shortSession: basePort + 1 } as const;
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
    trace: 'retain-on-failure',
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
  ],
});
