import type { IpcMainInvokeEvent } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { DESKTOP_CHANNELS, type BridgeResult } from '@shared/desktop';
import type { SessionTokenStore } from '../keychain';
import type { PendingUpload, SettingsStore } from '../settings';
import { ZServerUrl } from '../settings';
import { createAppHandlers } from './app';
import { createDesktopHandlers, isTrustedSender, registerDesktopIpc, UNTRUSTED_SENDER_ERROR, type SenderEvent } from './register';
import { createSessionHandlers, MAX_SESSION_TOKEN_LENGTH } from './session';
import { createSettingsHandlers } from './settings';
import { createShellHandlers } from './shell';

function memoryKeychain(): SessionTokenStore & { items: Map<string, string> } {
  const items = new Map<string, string>();
  return {
    items,
    getToken: async (origin) => items.get(origin) ?? null,
    setToken: async (origin, token) => void items.set(origin, token),
    clearToken: async (origin) => void items.delete(origin),
  };
}

function memorySettings(initial = 'http://127.0.0.1:3000'): SettingsStore {
  let current = initial;
  let pendingUploads: PendingUpload[] = [];
  let recent: string[] = [];
  return {
    getPendingUploads: async () => pendingUploads,
    setPendingUploads: async (uploads) => {
      pendingUploads = [...uploads];
    },
    getRecentFiles: async () => [...recent],
    addRecentFile: async (filePath) => void (recent = [filePath, ...recent.filter((p) => p !== filePath)]),
    removeRecentFiles: async (gone) => void (recent = recent.filter((p) => !gone.includes(p))),
    getDeviceId: async () => '2f1c9e0a-7d4b-4c1e-9a55-0b8f3d6e1a22',
    getServerUrl: async () => current,
    setServerUrl: async (input) => {
      current = ZServerUrl.parse(input);
      return current;
    },
  };
}

const silent = (): void => undefined;

function expectRefused(result: BridgeResult<unknown>): void {
  expect(result.ok).toBe(false);
  if (!result.ok) expect(result.error.length).toBeGreaterThan(0);
}

describe('session handlers', () => {
  it('stores, reads and clears the token for the configured server', async () => {
    const keychain = memoryKeychain();
    const handlers = createSessionHandlers({ keychain, settings: memorySettings('https://a.example'), log: silent });
    expect(await handlers.getSessionToken()).toEqual({ ok: true, value: null });
    expect(await handlers.setSessionToken('abc.DEF-123_~')).toEqual({ ok: true, value: null });
    expect(keychain.items.get('https://a.example')).toBe('abc.DEF-123_~');
    expect(await handlers.getSessionToken()).toEqual({ ok: true, value: 'abc.DEF-123_~' });
    expect(await handlers.clearSessionToken()).toEqual({ ok: true, value: null });
    expect(await handlers.clearSessionToken()).toEqual({ ok: true, value: null });
    expect(await handlers.getSessionToken()).toEqual({ ok: true, value: null });
  });

  it('refuses tokens that are not non-empty printable strings up to 4096 characters', async () => {
    const keychain = memoryKeychain();
    const handlers = createSessionHandlers({ keychain, settings: memorySettings(), log: silent });
    for (const bad of [undefined, null, 42, {}, ['t'], '', 'a'.repeat(MAX_SESSION_TOKEN_LENGTH + 1), 'two words', 'line\nbreak', 'tab\there', 'ünïcode']) {
      expectRefused(await handlers.setSessionToken(bad));
    }
    expect(keychain.items.size).toBe(0);
    expect(await handlers.setSessionToken('a'.repeat(MAX_SESSION_TOKEN_LENGTH))).toEqual({ ok: true, value: null });
  });

  it('answers keychain failures without throwing or leaking details', async () => {
    const log = vi.fn();
    const broken: SessionTokenStore = {
      getToken: async () => {
        throw new Error('org.freedesktop.DBus.Error.ServiceUnknown: secret details');
      },
      setToken: async () => {
        throw new Error('locked');
      },
      clearToken: async () => {
        throw new Error('locked');
      },
    };
    const handlers = createSessionHandlers({ keychain: broken, settings: memorySettings(), log });
    const result = await handlers.getSessionToken();
    expect(result).toEqual({ ok: false, error: 'Could not read the saved session from the system keychain' });
    expectRefused(await handlers.setSessionToken('token'));
    expectRefused(await handlers.clearSessionToken());
    expect(log).toHaveBeenCalledTimes(3);
  });
});

describe('settings handlers', () => {
  it('answers and changes the server URL, normalised', async () => {
    const handlers = createSettingsHandlers({ settings: memorySettings(), log: silent });
    expect(await handlers.getServerUrl()).toEqual({ ok: true, value: 'http://127.0.0.1:3000' });
    expect(await handlers.setServerUrl('HTTPS://Sandesh.Example.com/')).toEqual({
      ok: true,
      value: 'https://sandesh.example.com',
    });
    expect(await handlers.getServerUrl()).toEqual({ ok: true, value: 'https://sandesh.example.com' });
  });

  it('refuses invalid URLs with the validation message', async () => {
    const handlers = createSettingsHandlers({ settings: memorySettings(), log: silent });
    for (const bad of [undefined, 7, '', 'not a url', 'ftp://x.example', 'https://u:p@x.example', 'https://x.example/api']) {
      expectRefused(await handlers.setServerUrl(bad));
    }
    expect(await handlers.setServerUrl('file:///etc/passwd')).toEqual({
      ok: false,
      error: 'The server URL must start with http:// or https://',
    });
    expect(await handlers.getServerUrl()).toEqual({ ok: true, value: 'http://127.0.0.1:3000' });
  });

  it('answers the device id, and a settings failure as a short message', async () => {
    const handlers = createSettingsHandlers({ settings: memorySettings(), log: silent });
    expect(await handlers.getDeviceId()).toEqual({ ok: true, value: '2f1c9e0a-7d4b-4c1e-9a55-0b8f3d6e1a22' });
    const readOnly: SettingsStore = {
      ...memorySettings(),
      getDeviceId: async () => {
        throw new Error('EROFS: read-only file system, open /home/u/.config/Sandesh/settings.json');
      },
    };
    expect(await createSettingsHandlers({ settings: readOnly, log: silent }).getDeviceId()).toEqual({
      ok: false,
      error: 'Could not read the device id from the settings',
    });
  });
});

describe('app handlers', () => {
  it('answers the version and platform', async () => {
    const handlers = createAppHandlers({ version: '0.1.0', platform: 'linux' });
    expect(await handlers.getAppInfo()).toEqual({ ok: true, value: { version: '0.1.0', platform: 'linux' } });
  });
});

describe('shell handlers', () => {
  it('opens vetted http(s) links', async () => {
    const openExternal = vi.fn(async (_url: string) => undefined);
    const handlers = createShellHandlers({ openExternal, log: silent });
    expect(await handlers.openExternal('https://www.whatsapp.com/')).toEqual({ ok: true, value: null });
    expect(openExternal).toHaveBeenCalledWith('https://www.whatsapp.com/');
  });

  it('refuses anything else without calling the shell', async () => {
    const openExternal = vi.fn(async (_url: string) => undefined);
    const handlers = createShellHandlers({ openExternal, log: silent });
    for (const bad of [undefined, 1, '', 'file:///etc/passwd', 'javascript:alert(1)', 'smb://host/share', 'https://u:p@x.example', `https://x.example/${'a'.repeat(3000)}`]) {
      expectRefused(await handlers.openExternal(bad));
    }
    expect(openExternal).not.toHaveBeenCalled();
  });

  it('answers a failing shell without throwing', async () => {
    const handlers = createShellHandlers({
      openExternal: async () => {
        throw new Error('no browser');
      },
      log: silent,
    });
    expect(await handlers.openExternal('https://example.com')).toEqual({
      ok: false,
      error: 'Could not open the link in the browser',
    });
  });
});

describe('registerDesktopIpc', () => {
  type Listener = (event: IpcMainInvokeEvent, ...args: unknown[]) => Promise<unknown>;

  function fakeIpcMain() {
    const listeners = new Map<string, Listener>();
    return {
      listeners,
      handle: (channel: string, listener: Listener) => {
        if (listeners.has(channel)) throw new Error(`second handler for ${channel}`);
        listeners.set(channel, listener);
      },
      removeHandler: (channel: string) => {
        listeners.delete(channel);
      },
    };
  }

  /** Builds an invoke event whose sender frame is at `url`; only `senderFrame` is read. */
  function eventFrom(url: string | null, parent: unknown = null): IpcMainInvokeEvent {
    const event: SenderEvent = {
      senderFrame: url === null ? null : ({ url, parent } as unknown as IpcMainInvokeEvent['senderFrame']),
    };
    return event as IpcMainInvokeEvent;
  }

  function setup() {
    const ipc = fakeIpcMain();
    const handlers = createDesktopHandlers({
      keychain: memoryKeychain(),
      settings: memorySettings(),
      openExternal: async () => undefined,
      appInfo: { version: '1.2.3', platform: 'linux' },
      log: silent,
    });
    const unregister = registerDesktopIpc(ipc, handlers, { log: silent });
    const invoke = (channel: string, event: IpcMainInvokeEvent, ...args: unknown[]) => {
      const listener = ipc.listeners.get(channel);
      if (!listener) throw new Error(`no handler for ${channel}`);
      return listener(event, ...args);
    };
    return { ipc, invoke, unregister };
  }

  it('registers exactly one handler per channel', () => {
    const { ipc } = setup();
    expect([...ipc.listeners.keys()].sort()).toEqual(Object.values(DESKTOP_CHANNELS).sort());
  });

  it('runs handlers for the app page', async () => {
    const { invoke } = setup();
    const fromApp = eventFrom('app://sandesh/login');
    expect(await invoke(DESKTOP_CHANNELS.getAppInfo, fromApp)).toEqual({
      ok: true,
      value: { version: '1.2.3', platform: 'linux' },
    });
    expect(await invoke(DESKTOP_CHANNELS.setSessionToken, fromApp, 'tok')).toEqual({ ok: true, value: null });
    expect(await invoke(DESKTOP_CHANNELS.getSessionToken, fromApp)).toEqual({ ok: true, value: 'tok' });
    expect(await invoke(DESKTOP_CHANNELS.setSessionToken, fromApp, '')).toMatchObject({ ok: false });
  });

  it('refuses calls from other origins, subframes and destroyed frames', async () => {
    const { invoke } = setup();
    for (const event of [
      eventFrom('https://evil.example/'),
      eventFrom('file:///tmp/x.html'),
      eventFrom('app://sandesh/', { url: 'app://sandesh/' }),
      eventFrom(null),
    ]) {
      expect(await invoke(DESKTOP_CHANNELS.getSessionToken, event)).toEqual({ ok: false, error: UNTRUSTED_SENDER_ERROR });
    }
  });

  it('trusts the dev server only when configured', () => {
    expect(isTrustedSender(eventFrom('http://localhost:5173/'))).toBe(false);
    expect(isTrustedSender(eventFrom('http://localhost:5173/'), ['http://localhost:5173'])).toBe(true);
  });

  it('removes its handlers again', () => {
    const { ipc, unregister } = setup();
    unregister();
    expect(ipc.listeners.size).toBe(0);
  });
});
