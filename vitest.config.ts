import { defineConfig } from 'vitest/config';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

const alias = { '@shared': fileURLToPath(new URL('./shared', import.meta.url)) };

/**
 * Test projects:
 * - unit: colocated `*.test.ts` beside the code (shared, server, desktop main and renderer logic)
 * - api-sqlite / api-postgres: the HTTP API against a real server (tests/api)
 * - desktop: the desktop main-process modules for real (tests/desktop), run under a Secret
 *   Service by `npm run test:desktop`
 *
 * Two files at once even on two cores (vitest's default is one fewer worker than cores): the API
 * files mostly wait on servers, providers and timers (a whole API run: 720 s with two workers,
 * whose files take 1,029 s one after another, 2026-11-28). `npm test` runs the API files that
 * start processes of their own one at a time, in a step of their own (scripts/test.mjs). The
 * desktop files share one keyring and run one at a time.
 */
export default defineConfig({
  resolve: { alias },
  test: {
    maxWorkers: Math.max(2, availableParallelism() - 1),
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
          fileParallelism: false,
          include: ['tests/desktop/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
