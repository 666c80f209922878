import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TUser } from '@shared/types';
import { ApiError } from '../api/errors';

const user: TUser = {
  id: 7,
  name: 'Asha Rao',
  email: 'asha@example.in',
  username: 'asha',
  role: 'user',
  phoneNumber: '919876543210',
  creditBalance: 250.5,
  businessName: null,
  gstin: null,
  billingAddress: null,
  billingState: null,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
};

const authApi = vi.hoisted(() => ({ me: vi.fn(), session: vi.fn(), logout: vi.fn() }));
vi.mock('../api/auth', () => ({ authApi }));

/** A Map-backed Storage: the unit project runs in node, which has no localStorage. */
function memoryStorage(): Storage {
  const data = new Map<string, string>();
  return {
    get length() {
      return data.size;
    },
    clear: () => data.clear(),
    getItem: (key) => data.get(key) ?? null,
    key: (index) => [...data.keys()][index] ?? null,
    removeItem: (key) => void data.delete(key),
    setItem: (key, value) => void data.set(key, String(value)),
  };
}

async function freshStores() {
  vi.resetModules();
  const { useSessionStore } = await import('./sessionStore');
  const { useUIStore } = await import('./uiStore');
  return { useSessionStore, useUIStore };
}

beforeEach(() => {
  vi.stubGlobal('localStorage', memoryStorage());
  vi.stubGlobal('sessionStorage', memoryStorage());
  authApi.me.mockReset();
  authApi.session.mockReset();
  authApi.logout.mockReset();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('session start-up', () => {
  it('signs a stored user in at once and confirms it in the background', async () => {
    localStorage.setItem('user', JSON.stringify(user));
    authApi.session.mockResolvedValue({ user: { ...user, creditBalance: 99 }, idleTimeoutSeconds: 300 });
    const { useSessionStore, useUIStore } = await freshStores();
    await useSessionStore.getState().initialize();
    expect(useSessionStore.getState().isAuthenticated).toBe(true);
    expect(useSessionStore.getState().isLoading).toBe(false);
    await vi.waitFor(() => expect(useUIStore.getState().creditBalance).toBe(99));
    expect(useSessionStore.getState().idleTimeoutSeconds).toBe(300);
    expect(authApi.me).not.toHaveBeenCalled();
  });

  it('signs a stored user out when the server no longer knows the session', async () => {
    localStorage.setItem('user', JSON.stringify(user));
    authApi.session.mockResolvedValue({ user: null });
    const { useSessionStore } = await freshStores();
    await useSessionStore.getState().initialize();
    await vi.waitFor(() => expect(useSessionStore.getState().isAuthenticated).toBe(false));
    expect(localStorage.getItem('user')).toBeNull();
  });

  it('keeps a stored user when the session check cannot reach the server', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    localStorage.setItem('user', JSON.stringify(user));
    authApi.session.mockRejectedValue(new ApiError({ status: 0, code: 'network_error', message: 'offline' }));
    const { useSessionStore } = await freshStores();
    await useSessionStore.getState().initialize();
    await vi.waitFor(() => expect(warn).toHaveBeenCalled());
    expect(useSessionStore.getState().isAuthenticated).toBe(true);
    warn.mockRestore();
  });

  it('asks the server when nothing is stored and keeps the answer', async () => {
    authApi.session.mockResolvedValue({ user, idleTimeoutSeconds: 600 });
    const { useSessionStore } = await freshStores();
    await useSessionStore.getState().initialize();
    expect(useSessionStore.getState().user?.username).toBe('asha');
    expect(useSessionStore.getState().idleTimeoutSeconds).toBe(600);
    expect(JSON.parse(localStorage.getItem('user') ?? 'null')).toMatchObject({ id: 7 });
  });

  it('ends signed out for a visitor, without calling /api/auth/me', async () => {
    authApi.session.mockResolvedValue({ user: null });
    const { useSessionStore } = await freshStores();
    await useSessionStore.getState().initialize();
    expect(useSessionStore.getState()).toMatchObject({ user: null, isAuthenticated: false, isLoading: false });
    expect(authApi.me).not.toHaveBeenCalled();
  });

  it('ends signed out when the session check fails', async () => {
    authApi.session.mockRejectedValue(new ApiError({ status: 500, code: 'internal_error', message: 'x' }));
    const { useSessionStore } = await freshStores();
    await useSessionStore.getState().initialize();
    expect(useSessionStore.getState()).toMatchObject({ user: null, isAuthenticated: false, isLoading: false });
  });

  it('ignores a stored value that is not a user', async () => {
    localStorage.setItem('user', '{"hello":1}');
    authApi.session.mockResolvedValue({ user: null });
    const { useSessionStore } = await freshStores();
    await useSessionStore.getState().initialize();
    expect(useSessionStore.getState().isAuthenticated).toBe(false);
  });
});

describe('logout', () => {
  it('signs out and clears storage even when the server call fails, keeping the theme', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    authApi.logout.mockRejectedValue(new Error('offline'));
    const { useSessionStore } = await freshStores();
    await useSessionStore.getState().signIn(user);
    localStorage.setItem('theme', 'dark');
    localStorage.setItem('draft', 'x');
    sessionStorage.setItem('s', 'y');
    await useSessionStore.getState().logout();
    expect(useSessionStore.getState().isAuthenticated).toBe(false);
    expect(localStorage.getItem('user')).toBeNull();
    expect(localStorage.getItem('draft')).toBeNull();
    expect(localStorage.getItem('theme')).toBe('dark');
    expect(sessionStorage.length).toBe(0);
    warn.mockRestore();
  });
});

describe('clearSession', () => {
  it('forces the signed-out state after a 401', async () => {
    const { useSessionStore, useUIStore } = await freshStores();
    await useSessionStore.getState().signIn(user);
    expect(useUIStore.getState().creditBalance).toBe(250.5);
    useSessionStore.getState().clearSession();
    expect(useSessionStore.getState().isAuthenticated).toBe(false);
    expect(localStorage.getItem('user')).toBeNull();
    expect(useUIStore.getState().creditBalance).toBe(0);
  });
});
