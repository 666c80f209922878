// `npm test`: every check and suite, then one closing line with the totals.
// Steps: type-check (node and web), lint and the desktop and web builds, two at a time; unit; API
// on SQLite and PostgreSQL (when TEST_DATABASE_URL is set; the multi-process files in a step of
// their own); the desktop suite (under a Secret Service); end-to-end in Chromium. Every step runs
// even when an earlier one fails (end-to-end needs the web build). `node scripts/test.mjs api`
// (`npm run test:api`) runs the two API steps only.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
const reports = path.join(root, 'test-results', 'reports');
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const totals = { passed: 0, failed: 0, skipped: 0 };
const failedSteps = [];

function run(name, command, args, env = {}) {
  console.log(`\n=== ${name}: ${[path.basename(command), ...args].join(' ')}`);
  const started = Date.now();
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const ok = result.status === 0;
  console.log(`=== ${name}: ${ok ? 'ok' : 'FAILED'} in ${seconds} s`);
  if (!ok) failedSteps.push(name);
  return ok;
}

/**
 * Steps that only read the sources and write their own output (type-checks, lint, builds), two at
 * a time: each is one busy thread, and one after another they took 150 s here. Each step's output
 * is printed whole when it ends, so two steps never interleave. Answers the names that passed.
 */
async function runTwoAtATime(steps) {
  const passed = new Set();
  const queue = [...steps];
  const runOne = ({ name, command, args }) =>
    new Promise((resolve) => {
      const started = Date.now();
      const child = spawn(command, args, { env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
      const output = [];
      child.stdout.on('data', (chunk) => output.push(chunk));
      child.stderr.on('data', (chunk) => output.push(chunk));
      const finish = (ok, extra = '') => {
        const seconds = ((Date.now() - started) / 1000).toFixed(1);
        console.log(`\n=== ${name}: ${[path.basename(command), ...args].join(' ')}`);
        process.stdout.write(Buffer.concat(output));
        if (extra) console.log(extra);
        console.log(`=== ${name}: ${ok ? 'ok' : 'FAILED'} in ${seconds} s`);
        if (ok) passed.add(name);
        else failedSteps.push(name);
        resolve();
      };
      child.on('error', (error) => finish(false, `could not start: ${error.message}`));
      child.on('close', (code) => finish(code === 0));
    });
  const lane = async () => {
    for (let step = queue.shift(); step; step = queue.shift()) await runOne(step);
  };
  await Promise.all([lane(), lane()]);
  return passed;
}

function addVitest(file) {
  if (!existsSync(file)) return;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  totals.passed += report.numPassedTests ?? 0;
  totals.failed += report.numFailedTests ?? 0;
  totals.skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
}

function addPlaywright(file) {
  if (!existsSync(file)) return;
  const { stats } = JSON.parse(readFileSync(file, 'utf8'));
  totals.passed += (stats?.expected ?? 0) + (stats?.flaky ?? 0);
  totals.failed += stats?.unexpected ?? 0;
  totals.skipped += stats?.skipped ?? 0;
}

function vitest(name, projects, extraEnv = {}, extraArgs = []) {
  const output = path.join(reports, `${name.replace(/\W+/g, '-')}.json`);
  const args = ['run', ...projects.flatMap((p) => ['--project', p]), '--reporter=default', '--reporter=json', `--outputFile.json=${output}`, ...extraArgs];
  run(name, bin('vitest'), args, extraEnv);
  addVitest(output);
}

const apiOnly = process.argv[2] === 'api';
let built = new Set();
if (!apiOnly) {
  built = await runTwoAtATime([
    { name: 'lint', command: bin('eslint'), args: ['--max-warnings', '0', '.'] },
    { name: 'typecheck:node', command: bin('tsc'), args: ['-p', 'tsconfig.node.json', '--noEmit'] },
    { name: 'typecheck:web', command: bin('tsc'), args: ['-p', 'tsconfig.web.json', '--noEmit'] },
    // The desktop suite drives the built renderer and preload; end-to-end serves the web build.
    { name: 'build:desktop', command: bin('electron-vite'), args: ['build', '--config', 'desktop/electron.vite.config.ts', '--logLevel', 'warn'] },
    { name: 'build:web', command: process.execPath, args: ['node_modules/vite/bin/vite.js', 'build', '--config', 'vite.web.config.mts', '--logLevel', 'warn'] },
  ]);
  vitest('unit', ['unit', 'unit-desktop']);
}
// Without TEST_DATABASE_URL, the local PostgreSQL (trust auth, database `test`) is used when it
// answers, so the README's `npm test` runs both databases on a machine that has one.
const LOCAL_POSTGRES = 'postgres://postgres@127.0.0.1:5432/test';
if (!process.env.TEST_DATABASE_URL) {
  const probe = spawnSync(process.execPath, ['-e', `const { Client } = require('pg'); const c = new Client({ connectionString: process.argv[1], connectionTimeoutMillis: 3000 }); c.connect().then(() => c.query('select 1')).then(() => process.exit(0), () => process.exit(1));`, LOCAL_POSTGRES], { stdio: 'ignore', timeout: 10_000 });
  if (probe.status === 0) {
    process.env.TEST_DATABASE_URL = LOCAL_POSTGRES;
    console.log(`\nTEST_DATABASE_URL is not set: using the local PostgreSQL at ${LOCAL_POSTGRES}.`);
  } else {
    console.log('\nTEST_DATABASE_URL is not set and no PostgreSQL answers at 127.0.0.1:5432: the PostgreSQL API suite will skip.');
  }
}
// The API files that start server processes of their own or busy loops beside them run in a step
// of their own, one at a time: two of them at once on two cores (three instances beside a crash
// and restart, with six busy loops) made the crash test miss its recovery deadline. The rest run
// two at a time (vitest.config.ts).
const SEVERAL_PROCESSES = ['three-instances', 'crash-recovery', 'two-instances', 'scale-out', 'campaigns'].map((name) => `tests/api/${name}.test.ts`);
vitest('api', ['api-sqlite', 'api-postgres'], {}, SEVERAL_PROCESSES.flatMap((file) => ['--exclude', file]));
vitest('api, several processes', ['api-sqlite', 'api-postgres'], {}, ['--maxWorkers=1', ...SEVERAL_PROCESSES]);

if (!apiOnly) {
  const desktopReport = path.join(reports, 'desktop.json');
  run('desktop', process.execPath, ['scripts/test-desktop.mjs', '--reporter=default', '--reporter=json', `--outputFile.json=${desktopReport}`]);
  addVitest(desktopReport);

  if (built.has('build:web')) {
    const e2eReport = path.join(reports, 'e2e.json');
    run('e2e', bin('playwright'), ['test'], { PLAYWRIGHT_JSON_OUTPUT_NAME: e2eReport });
    addPlaywright(e2eReport);
  }
}

console.log(`\nSteps failed: ${failedSteps.length ? failedSteps.join(', ') : 'none'}`);
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedSteps.length || totals.failed ? 1 : 0);
