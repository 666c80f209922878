import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

const alias = { '@shared': fileURLToPath(new URL('./shared', import.meta.url)) };

/**
 * Test projects:
 * - unit: colocated `*.test.ts` beside the code (shared, server, desktop main and renderer logic)
 * - api-sqlite / api-postgres: the HTTP API against a real server (tests/api)
 * - desktop: the desktop main-process modules for real (tests/desktop), run under a Secret
 *   Service by `npm run test:desktop`
 */
export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit',
          environment: 'node',
          include: ['shared/**/*.test.ts', 'server/**/*.test.ts', 'desktop/src/**/*.test.ts'],
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'api-sqlite',
          environment: 'node',
          include: ['tests/api/**/*.test.ts'],
          env: { TEST_DB: 'sqlite' },
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'api-postgres',
          environment: 'node',
          include: ['tests/api/**/*.test.ts'],
          env: { TEST_DB: 'postgres' },
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'desktop',
          environment: 'node',
          include: ['tests/desktop/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
