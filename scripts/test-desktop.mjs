#!/usr/bin/env node
/**
 * Runs the desktop suite (`vitest run --project desktop`) inside a real Secret Service when this
 * machine can provide one: a private D-Bus session (dbus-run-session) with gnome-keyring unlocked
 * for it, and a temporary HOME so the test keyring never mixes with a user's own. Without those
 * tools vitest runs directly and the keychain tests skip, saying why. Exits with vitest's code.
 *
 * Extra arguments are passed on to vitest (e.g. `npm run test:desktop -- tests/desktop/ipc.test.ts`).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const extraArgs = process.argv.slice(2);

function hasCommand(name) {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

/** Quotes one argument for `sh -c`. */
function shellQuote(value) {
  return `'${String(value).replace(/'/g, `'\\''`)}'`;
}

function run(command, args, env) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: projectRoot, env, stdio: 'inherit' });
    const forward = (signal) => child.kill(signal);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('exit', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve(code ?? (signal ? 1 : 0));
    });
    child.on('error', (error) => {
      console.error(`[test-desktop] could not start ${command}: ${error.message}`);
      resolve(1);
    });
  });
}

// Resolve vitest from this project's node_modules so the temporary HOME cannot change which
// npx cache or global install is used.
const vitestBin = path.join(projectRoot, 'node_modules', 'vitest', 'vitest.mjs');
const vitestCommand = [process.execPath, vitestBin, 'run', '--project', 'desktop', ...extraArgs];

let exitCode;
if (process.platform === 'linux' && hasCommand('dbus-run-session') && hasCommand('gnome-keyring-daemon')) {
  const home = mkdtempSync(path.join(tmpdir(), 'sandesh-desktop-test-home-'));
  const xdg = {
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    XDG_STATE_HOME: path.join(home, '.local', 'state'),
    XDG_RUNTIME_DIR: path.join(home, 'runtime'),
  };
  for (const dir of Object.values(xdg)) mkdirSync(dir, { recursive: true, mode: 0o700 });
  const env = { ...process.env, HOME: home, ...xdg };
  // gnome-keyring prints the variables to export (GNOME_KEYRING_CONTROL, ...); `--unlock` reads the
  // new login keyring's password from stdin so no prompt ever appears.
  const script = [
    'eval "$(echo pw | gnome-keyring-daemon --unlock --components=secrets)"',
    `export HOME=${shellQuote(home)}`,
    vitestCommand.map(shellQuote).join(' '),
  ].join('; ');
  console.log(`[test-desktop] running under dbus-run-session + gnome-keyring (HOME=${home})`);
  try {
    exitCode = await run('dbus-run-session', ['--', 'sh', '-c', script], env);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
} else {
  const missing = ['dbus-run-session', 'gnome-keyring-daemon'].filter((name) => !hasCommand(name));
  console.log(
    process.platform === 'linux'
      ? `[test-desktop] ${missing.join(' and ')} not found: running without a Secret Service (keychain tests will skip)`
      : '[test-desktop] not Linux: running against the platform keychain',
  );
  const [command, ...args] = vitestCommand;
  exitCode = await run(command, args, process.env);
}
process.exit(exitCode);
