/**
 * The desktop session token in the OS keychain (Keychain on macOS, Credential Manager on Windows,
 * the Secret Service on Linux) through @napi-rs/keyring. One entry per server origin, so that
 * switching servers never sends one server's token to another and switching back finds the old
 * session again.
 */
import { AsyncEntry, type EntryOptions } from '@napi-rs/keyring';
import { KEYCHAIN_SERVICE } from '@shared/desktop';

/** The slice of @napi-rs/keyring's `AsyncEntry` this store uses; tests pass a fake. */
export interface KeychainEntry {
  getPassword(): Promise<string | null | undefined>;
  setPassword(password: string): Promise<void>;
  deleteCredential(): Promise<boolean>;
}

export type KeychainEntryConstructor = new (service: string, account: string, options?: EntryOptions) => KeychainEntry;

export interface SessionTokenStore {
  /** The token saved for this server, or null when there is none. */
  getToken(serverOrigin: string): Promise<string | null>;
  /** Saves (or replaces) the token for this server. */
  setToken(serverOrigin: string, token: string): Promise<void>;
  /** Removes the token for this server; succeeds when there was none. */
  clearToken(serverOrigin: string): Promise<void>;
}

/**
 * The keychain account for a server: its origin, so `https://a.example` and `http://a.example`
 * and `https://a.example:8443` are separate. Normalises again so callers cannot split one server
 * into two entries by spelling (`HTTPS://A.example/`).
 */
export function keychainAccountFor(serverOrigin: string): string {
  return `session:${new URL(serverOrigin).origin}`;
}

export interface KeychainStoreOptions {
  /** Defaults to @napi-rs/keyring's AsyncEntry, which keeps the main thread free during D-Bus calls. */
  Entry?: KeychainEntryConstructor;
  /** Defaults to KEYCHAIN_SERVICE; tests use their own so they never touch a real session. */
  service?: string;
  /**
   * Passed to every entry. Left unset in the app, so that on Linux a machine without a Secret
   * Service falls back to the kernel keyring (the session then lasts until logout) instead of
   * failing; tests pin `{ linux: { store: 'secret-service' } }` to exercise the real service.
   */
  entryOptions?: EntryOptions;
}

export function createKeychainStore(options: KeychainStoreOptions = {}): SessionTokenStore {
  const Entry: KeychainEntryConstructor = options.Entry ?? AsyncEntry;
  const service = options.service ?? KEYCHAIN_SERVICE;
  const entryFor = (serverOrigin: string): KeychainEntry =>
    new Entry(service, keychainAccountFor(serverOrigin), options.entryOptions);

  return {
    async getToken(serverOrigin) {
      const token = await entryFor(serverOrigin).getPassword();
      // Some backends answer an empty string for a deleted item; that is not a session.
      return token ? token : null;
    },
    async setToken(serverOrigin, token) {
      await entryFor(serverOrigin).setPassword(token);
    },
    async clearToken(serverOrigin) {
      // `false` means nothing was stored: logging out twice is fine.
      await entryFor(serverOrigin).deleteCredential();
    },
  };
}
