import { existsSync } from 'node:fs';

/**
 * The browser the end-to-end and desktop suites drive: always Debian's own build, never a
 * downloaded one. Debian's `chromium-headless-shell` package (the old headless shell, from the
 * same source as `chromium`) is used when installed: it has no browser UI to composite, and with
 * it four end-to-end files took 79 s where the full browser took 89 s (2 cores, no trace).
 * `CHROMIUM_PATH` picks another binary.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
const FULL_BROWSER = '/usr/bin/chromium';

export const CHROMIUM_EXECUTABLE = process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : FULL_BROWSER);

/** Why the browser suites cannot run here, or null when they can. */
export function chromiumMissingReason(): string | null {
  return existsSync(CHROMIUM_EXECUTABLE) ? null : `Debian Chromium not installed at ${CHROMIUM_EXECUTABLE} (apt-get install -y chromium chromium-headless-shell)`;
}

/** Flags for this closed network and a machine without a GPU. */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-dev-shm-usage'];
