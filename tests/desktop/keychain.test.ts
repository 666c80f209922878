/**
 * The real session token store against the real OS keychain (the Secret Service on Linux, run
 * under gnome-keyring by `npm run test:desktop`). Skips, saying why, when none is reachable.
 */
import { AsyncEntry } from '@napi-rs/keyring';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createKeychainStore, keychainAccountFor } from '../../desktop/src/main/keychain';
import { secretServiceUnavailableReason, TEST_ENTRY_OPTIONS, TEST_KEYCHAIN_SERVICE } from './secret-service';

const SERVER_A = 'https://a.sandesh.test';
const SERVER_B = 'http://127.0.0.1:3000';

const unavailable = await secretServiceUnavailableReason();
if (unavailable) console.warn(`[keychain.test] skipped: ${unavailable}`);

const store = createKeychainStore({ service: TEST_KEYCHAIN_SERVICE, entryOptions: TEST_ENTRY_OPTIONS });
const rawEntry = (origin: string) => new AsyncEntry(TEST_KEYCHAIN_SERVICE, keychainAccountFor(origin), TEST_ENTRY_OPTIONS);

describe(`session token store in the OS keychain${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  beforeEach((context) => {
    if (unavailable) context.skip(unavailable);
  });

  beforeAll(async () => {
    if (unavailable) return;
    await store.clearToken(SERVER_A);
    await store.clearToken(SERVER_B);
  });

  afterAll(async () => {
    if (unavailable) return;
    await store.clearToken(SERVER_A);
    await store.clearToken(SERVER_B);
  });

  it('answers null when no token is saved', async () => {
    expect(await store.getToken(SERVER_A)).toBeNull();
  });

  it('saves a token and reads it back, also through a new store instance', async () => {
    await store.setToken(SERVER_A, 'session-token-1');
    expect(await store.getToken(SERVER_A)).toBe('session-token-1');
    const again = createKeychainStore({ service: TEST_KEYCHAIN_SERVICE, entryOptions: TEST_ENTRY_OPTIONS });
    expect(await again.getToken(SERVER_A)).toBe('session-token-1');
  });

  it('stores it as a keychain item under the service and the server-derived account', async () => {
    expect(await rawEntry(SERVER_A).getPassword()).toBe('session-token-1');
  });

  it('overwrites the token', async () => {
    await store.setToken(SERVER_A, 'session-token-2');
    expect(await store.getToken(SERVER_A)).toBe('session-token-2');
  });

  it('round-trips a 4096-character token', async () => {
    const long = 'x'.repeat(4096);
    await store.setToken(SERVER_A, long);
    expect(await store.getToken(SERVER_A)).toBe(long);
  });

  it('keeps separate entries for separate servers', async () => {
    await store.setToken(SERVER_A, 'token-for-a');
    await store.setToken(SERVER_B, 'token-for-b');
    expect(await store.getToken(SERVER_A)).toBe('token-for-a');
    expect(await store.getToken(SERVER_B)).toBe('token-for-b');
    // The same server spelt differently is the same entry.
    expect(await store.getToken('HTTPS://A.sandesh.test/')).toBe('token-for-a');
    await store.clearToken(SERVER_A);
    expect(await store.getToken(SERVER_A)).toBeNull();
    expect(await store.getToken(SERVER_B)).toBe('token-for-b');
  });

  it('clears, and clearing again succeeds', async () => {
    await store.setToken(SERVER_B, 'to-be-cleared');
    await store.clearToken(SERVER_B);
    expect(await store.getToken(SERVER_B)).toBeNull();
    expect(await rawEntry(SERVER_B).getPassword()).toBeNull();
    await expect(store.clearToken(SERVER_B)).resolves.toBeUndefined();
  });
});
