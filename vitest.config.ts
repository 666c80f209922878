import { defineConfig } from 'vitest/config';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

const alias = { '@shared': fileURLToPath(new URL('./shared', import.meta.url)) };

/**
 * Test projects:
 * - unit, unit-desktop: colocated `*.test.ts` beside the code (shared and server; desktop main
 *   and renderer logic)
 * - api-sqlite / api-postgres: the HTTP API against a real server (tests/api)
 * - desktop: the desktop main-process modules for real (tests/desktop), run under a Secret
 *   Service by `npm run test:desktop`
 *
 * Two files at once even on two cores (vitest's default is one fewer worker than cores): the API
 * files mostly wait on servers, providers and timers (a whole API run: 720 s with two workers,
 * whose files take 1,029 s one after another, 2026-11-28). `npm test` runs the API files that
 * start processes of their own one at a time, in a step of their own (scripts/test.mjs). The
 * desktop files share one keyring and run one at a time.
 *
 * The unit and API files share their worker's module cache (`isolate: false`): each file imported
 * the whole server again, 223 s of the API step's 373 s (2.3 s a file); without it the step took
 * 244 s, and the server and shared unit files 25 s against 37 s (2026-11-28). Every API file starts
 * its own servers on its own database or schema, and none mocks a module. The renderer's unit
 * files do, so they stay isolated.
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
          isolate: false,
          include: ['shared/**/*.test.ts', 'server/**/*.test.ts'],
          // A limit for a hung test, not a speed check: beside the multi-process API step and its
          // busy loops, a parse in a worker thread took longer than vitest's default 5 s.
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        resolve: { alias },
        test: {
          // Isolated: some of these mock modules and stub globals (localStorage, document).
          name: 'unit-desktop',
          environment: 'node',
          include: ['desktop/src/**/*.test.ts'],
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'api-sqlite',
          environment: 'node',
          isolate: false,
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
          isolate: false,
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
