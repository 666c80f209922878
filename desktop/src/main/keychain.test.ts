import { describe, expect, it } from 'vitest';
import { createKeychainStore, keychainAccountFor, type KeychainEntry } from './keychain';

/** An in-memory stand-in for @napi-rs/keyring's AsyncEntry, keyed like the real keychain. */
function fakeKeyring() {
  const items = new Map<string, string>();
  const calls: Array<{ service: string; account: string }> = [];
  class FakeEntry implements KeychainEntry {
    private readonly key: string;
    constructor(service: string, account: string) {
      this.key = `${service}\u0000${account}`;
      calls.push({ service, account });
    }
    async getPassword() {
      return items.get(this.key) ?? null;
    }
    async setPassword(password: string) {
      items.set(this.key, password);
    }
    async deleteCredential() {
      return items.delete(this.key);
    }
  }
  return { FakeEntry, items, calls };
}

describe('keychainAccountFor', () => {
  it('derives the account from the normalised origin', () => {
    expect(keychainAccountFor('https://sandesh.example.com')).toBe('session:https://sandesh.example.com');
    expect(keychainAccountFor('HTTPS://Sandesh.Example.com:443/')).toBe('session:https://sandesh.example.com');
  });

  it('separates schemes and ports', () => {
    const accounts = new Set(
      ['https://a.example', 'http://a.example', 'https://a.example:8443'].map(keychainAccountFor),
    );
    expect(accounts.size).toBe(3);
  });
});

describe('createKeychainStore', () => {
  it('uses the service and one account per server', async () => {
    const { FakeEntry, calls } = fakeKeyring();
    const store = createKeychainStore({ Entry: FakeEntry, service: 'svc' });
    await store.setToken('https://a.example', 'tok');
    expect(calls).toEqual([{ service: 'svc', account: 'session:https://a.example' }]);
  });

  it('saves, reads back, overwrites and clears', async () => {
    const { FakeEntry } = fakeKeyring();
    const store = createKeychainStore({ Entry: FakeEntry });
    expect(await store.getToken('https://a.example')).toBeNull();
    await store.setToken('https://a.example', 'first');
    expect(await store.getToken('https://a.example')).toBe('first');
    await store.setToken('https://a.example', 'second');
    expect(await store.getToken('https://a.example')).toBe('second');
    await store.clearToken('https://a.example');
    expect(await store.getToken('https://a.example')).toBeNull();
  });

  it('clears idempotently', async () => {
    const { FakeEntry } = fakeKeyring();
    const store = createKeychainStore({ Entry: FakeEntry });
    await expect(store.clearToken('https://a.example')).resolves.toBeUndefined();
    await expect(store.clearToken('https://a.example')).resolves.toBeUndefined();
  });

  it('keeps separate tokens for separate servers', async () => {
    const { FakeEntry } = fakeKeyring();
    const store = createKeychainStore({ Entry: FakeEntry });
    await store.setToken('https://a.example', 'token-a');
    await store.setToken('https://b.example', 'token-b');
    await store.clearToken('https://a.example');
    expect(await store.getToken('https://a.example')).toBeNull();
    expect(await store.getToken('https://b.example')).toBe('token-b');
  });

  it('treats an empty stored value as no session', async () => {
    const { FakeEntry, items } = fakeKeyring();
    const store = createKeychainStore({ Entry: FakeEntry, service: 's' });
    items.set('s\u0000session:https://a.example', '');
    expect(await store.getToken('https://a.example')).toBeNull();
  });
});
