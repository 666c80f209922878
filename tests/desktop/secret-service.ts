/**
 * Finds out whether a real OS keychain can be used by the desktop suite, and gives each run its
 * own keychain service name so that tests never touch a real Sandesh session.
 */
import { AsyncEntry, type EntryOptions } from '@napi-rs/keyring';

/**
 * On Linux the store is pinned to the Secret Service: @napi-rs/keyring would otherwise fall back
 * to the kernel keyring silently, and the suite would pass without testing what users have.
 */
export const TEST_ENTRY_OPTIONS: EntryOptions | undefined =
  process.platform === 'linux' ? { linux: { store: 'secret-service' } } : undefined;

/** Unique per run; the app's real service is `in.sandesh.desktop`. */
export const TEST_KEYCHAIN_SERVICE = `in.sandesh.desktop.test.${process.pid}.${Date.now()}`;

const PROBE_TIMEOUT_MS = 10_000;

/**
 * Resolves null when the keychain answers, otherwise the reason it cannot be used (for the skip
 * message). A read of an absent entry is the probe: it needs a reachable, unlocked service and
 * leaves nothing behind.
 */
export async function secretServiceUnavailableReason(): Promise<string | null> {
  if (process.platform === 'linux' && !process.env['DBUS_SESSION_BUS_ADDRESS']) {
    return 'no Secret Service: DBUS_SESSION_BUS_ADDRESS is not set (run `npm run test:desktop`, which starts D-Bus and gnome-keyring when installed)';
  }
  let timer: NodeJS.Timeout | undefined;
  try {
    const probe = new AsyncEntry(TEST_KEYCHAIN_SERVICE, 'probe', TEST_ENTRY_OPTIONS).getPassword();
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${PROBE_TIMEOUT_MS} ms (locked keyring?)`)), PROBE_TIMEOUT_MS);
    });
    await Promise.race([probe, timeout]);
    return null;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return `no Secret Service reachable: ${message}`;
  } finally {
    clearTimeout(timer);
  }
}
