// `npm test`: every check and suite, then one closing line with the totals.
// First the type-checks (node and web), lint and the desktop and web builds, two at a time. Then
// two lanes side by side: the API suites on SQLite and PostgreSQL (when TEST_DATABASE_URL is set;
// the multi-process files in a step of their own) in one; unit, the desktop suite (under a Secret
// Service) and end-to-end in Chromium in the other. Every step runs even when an earlier one
// fails (end-to-end needs the web build). `node scripts/test.mjs api` (`npm run test:api`) runs
// the two API steps only.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LOCAL_POSTGRES, localPostgresAnswers } from './local-postgres.mjs';
import { SEVERAL_PROCESSES } from './several-processes.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
const reports = path.join(root, 'test-results', 'reports');
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const totals = { passed: 0, failed: 0, skipped: 0 };
const failedSteps = [];

/**
 * Runs one step as a child process and answers whether it passed. `output: 'whole'` holds its
 * output and prints it in one piece when it ends (short steps run two at a time, so they never
 * interleave); `output: 'lines'` prints each line as it comes with the step's name in front (long
 * steps in lanes side by side, so their progress shows). Once a step ends, passed or not, its
 * `after()` may read its report.
 */
function runStep({ name, command, args, env = {}, after }, output) {
  return new Promise((resolve) => {
    const started = Date.now();
    const commandLine = `=== ${name}: ${[path.basename(command), ...args].join(' ')}`;
    if (output === 'lines') console.log(`\n${commandLine}`);
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const held = [];
    const partial = { stdout: '', stderr: '' };
    const take = (stream) => (chunk) => {
      if (output === 'whole') return void held.push(chunk);
      const lines = (partial[stream] + chunk.toString()).split('\n');
      partial[stream] = lines.pop() ?? '';
      for (const line of lines) console.log(`[${name}] ${line}`);
    };
    child.stdout.on('data', take('stdout'));
    child.stderr.on('data', take('stderr'));
    let finished = false;
    const finish = (ok, extra = '') => {
      if (finished) return;
      finished = true;
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      if (output === 'whole') {
        console.log(`\n${commandLine}`);
        process.stdout.write(Buffer.concat(held));
      } else {
        for (const rest of [partial.stdout, partial.stderr]) if (rest) console.log(`[${name}] ${rest}`);
      }
      if (extra) console.log(extra);
      console.log(`=== ${name}: ${ok ? 'ok' : 'FAILED'} in ${seconds} s`);
      if (!ok) failedSteps.push(name);
      after?.();
      resolve(ok);
    };
    child.on('error', (error) => finish(false, `could not start: ${error.message}`));
    child.on('close', (code) => finish(code === 0));
  });
}

/**
 * Steps that only read the sources and write their own output (type-checks, lint, builds), two at
 * a time: each is one busy thread, and one after another they took 150 s here. Answers the names
 * that passed.
 */
async function runTwoAtATime(steps) {
  const passed = new Set();
  const queue = [...steps];
  const lane = async () => {
    for (let step = queue.shift(); step; step = queue.shift()) if (await runStep(step, 'whole')) passed.add(step.name);
  };
  await Promise.all([lane(), lane()]);
  return passed;
}

/** Lanes side by side, each its steps one after another (a step may be left out as null). */
async function runLanes(lanes) {
  await Promise.all(lanes.map(async (steps) => {
    for (const step of steps) if (step) await runStep(step, 'lines');
  }));
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

/** A vitest step whose JSON report adds to the totals. */
function vitestStep(name, projects, extraArgs = []) {
  const output = path.join(reports, `${name.replace(/\W+/g, '-')}.json`);
  const args = ['run', ...projects.flatMap((p) => ['--project', p]), '--reporter=default', '--reporter=json', `--outputFile.json=${output}`, ...extraArgs];
  return { name, command: bin('vitest'), args, after: () => addVitest(output) };
}

const apiOnly = process.argv[2] === 'api';
let built = new Set();
if (!apiOnly) {
  built = await runTwoAtATime([
    { name: 'lint', command: bin('eslint'), args: ['--max-warnings', '0', '.'] },
    { name: 'typecheck:node', command: bin('tsc'), args: ['-p', 'tsconfig.node.json', '--noEmit'] },
    { name: 'typecheck:web', command: bin('tsc'), args: ['-p', 'tsconfig.web.json', '--noEmit'] },
    { name: 'typecheck:web-tests', command: bin('tsc'), args: ['-p', 'tsconfig.web-tests.json', '--noEmit'] },
    // The desktop suite drives the built renderer and preload; end-to-end serves the web build.
    { name: 'build:desktop', command: bin('electron-vite'), args: ['build', '--config', 'desktop/electron.vite.config.ts', '--logLevel', 'warn'] },
    { name: 'build:web', command: process.execPath, args: ['node_modules/vite/bin/vite.js', 'build', '--config', 'vite.web.config.mts', '--logLevel', 'warn'] },
  ]);
}
// Without TEST_DATABASE_URL, the local PostgreSQL is used when it answers, so the README's
// `npm test` runs both databases on a machine that has one.
if (!process.env.TEST_DATABASE_URL) {
  if (localPostgresAnswers()) {
    process.env.TEST_DATABASE_URL = LOCAL_POSTGRES;
    console.log(`\nTEST_DATABASE_URL is not set: using the local PostgreSQL at ${LOCAL_POSTGRES}.`);
  } else {
    console.log('\nTEST_DATABASE_URL is not set and no PostgreSQL answers at 127.0.0.1:5432: the PostgreSQL API suite will skip.');
  }
}
// The API files that start server processes of their own run in a step of their own, one at a
// time (scripts/several-processes.mjs); the rest two at a time (vitest.config.ts).
// The multi-process step first: alone at the end of the run it kept the cores only 56 % busy, the
// other API files 84 %.
const apiLane = [
  vitestStep('api, several processes', ['api-sqlite', 'api-postgres'], ['--maxWorkers=1', ...SEVERAL_PROCESSES]),
  vitestStep('api', ['api-sqlite', 'api-postgres'], SEVERAL_PROCESSES.flatMap((file) => ['--exclude', file])),
];

if (apiOnly) await runLanes([apiLane]);
else {
  // The browser lane beside the API lane: neither keeps both cores busy alone (end-to-end about
  // 60 %), and every suite must hold with other work beside it. Each timed alone, these steps add
  // up to 1,044 s here; side by side they took 970-996 s
  // (docs/decisions/2026-11-28-test-suite-browser-and-lanes.md).
  const desktopReport = path.join(reports, 'desktop.json');
  const e2eReport = path.join(reports, 'e2e.json');
  const browserLane = [
    vitestStep('unit', ['unit', 'unit-desktop']),
    { name: 'desktop', command: process.execPath, args: ['scripts/test-desktop.mjs', '--reporter=default', '--reporter=json', `--outputFile.json=${desktopReport}`], after: () => addVitest(desktopReport) },
    built.has('build:web') ? { name: 'e2e', command: bin('playwright'), args: ['test'], env: { PLAYWRIGHT_JSON_OUTPUT_NAME: e2eReport }, after: () => addPlaywright(e2eReport) } : null,
  ];
  await runLanes([apiLane, browserLane]);
}

console.log(`\nSteps failed: ${failedSteps.length ? failedSteps.join(', ') : 'none'}`);
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedSteps.length || totals.failed ? 1 : 0);
