// `npm start`: builds the web app for production unless the build on disk came from the same
// sources (a stamp beside it says which), then runs the server, which migrates the database,
// creates the first admin and serves the API and the web app.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

/** Everything the web build reads: the renderer, shared code, the build's config and plugins, the locked dependencies. */
const BUILD_INPUTS = ['desktop/src/renderer', 'shared', 'vite.web.config.mts', 'scripts/precompress.mjs', 'scripts/first-load-size.mjs', 'package-lock.json'];
/** A dot file: the server never serves it (koa-send skips hidden files). */
const STAMP_FILE = '.build-stamp';

/** The files of one input, in a stable order (tests are not part of the build). */
function filesOf(input) {
  const full = path.join(root, input);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [input];
  return readdirSync(full, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .sort();
}

/** A digest of the build's inputs (names and contents), and the one mode the build is run in. */
function buildStamp() {
  const hash = createHash('sha256');
  for (const file of BUILD_INPUTS.flatMap(filesOf)) {
    hash.update(file).update('\0').update(readFileSync(path.join(root, file))).update('\0');
  }
  return `production ${hash.digest('hex')}`;
}

const webDir = path.resolve(process.env.WEB_DIST_DIR || 'dist/web');
const stampPath = path.join(webDir, STAMP_FILE);
const stamp = buildStamp();
const built = existsSync(path.join(webDir, 'index.html')) && existsSync(stampPath) && readFileSync(stampPath, 'utf8').trim() === stamp;
if (built) {
  console.log('The web app build is up to date.');
} else {
  console.log('Building the web app for production (its sources changed, or it was not built by npm start)...');
  // Built beside the served folder, then swapped in: a failed build leaves the last good one, and
  // a server already running sees the old files or the new ones, never a half-written mix.
  const buildDir = path.join(path.dirname(webDir), `.${path.basename(webDir)}-build-${process.pid}`);
  const build = spawnSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--config', 'vite.web.config.mts', '--mode', 'production', '--logLevel', 'warn'], {
    stdio: 'inherit',
    // Whatever the caller's NODE_ENV: a development value would ship React's development build.
    env: { ...process.env, NODE_ENV: 'production', WEB_OUT_DIR: buildDir },
  });
  if (build.status !== 0) {
    rmSync(buildDir, { recursive: true, force: true });
    console.error('The web app build failed; see above.');
    process.exit(build.status ?? 1);
  }
  writeFileSync(path.join(buildDir, STAMP_FILE), `${stamp}\n`);
  rmSync(webDir, { recursive: true, force: true });
  renameSync(buildDir, webDir);
}

register({ tsconfig: path.join(root, 'tsconfig.json') });
await import('../server/src/main.ts');
