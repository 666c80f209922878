import { describe, expect, it, vi } from 'vitest';
import type { BridgeResult, DesktopBridge, DesktopSpreadsheets } from '@shared/desktop';
import { createDesktopPlatform } from './desktop';

const ok = <T>(value: T): Promise<BridgeResult<T>> => Promise.resolve({ ok: true, value });
const fail = <T>(error: string): Promise<BridgeResult<T>> => Promise.resolve({ ok: false, error });

function fakeSpreadsheets(overrides: Partial<DesktopSpreadsheets> = {}): DesktopSpreadsheets {
  return {
    pick: () => ok(null),
    openDropped: () => fail('not used'),
    recent: () => ok([]),
    parse: () => fail('not used'),
    prepare: () => fail('not used'),
    saveInvalidRows: () => ok(false),
    upload: () => fail('not used'),
    pauseUpload: () => ok(null),
    resumeUpload: () => fail('not used'),
    pendingUploads: () => ok([]),
    onProgress: () => () => undefined,
    setTaskbarProgress: () => ok(null),
    notify: () => ok(null),
    ...overrides,
  };
}

function fakeBridge(overrides: Partial<DesktopBridge> = {}): DesktopBridge {
  return {
    spreadsheets: fakeSpreadsheets(),
    getSessionToken: () => ok('token-1'),
    setSessionToken: () => ok(null),
    clearSessionToken: () => ok(null),
    getServerUrl: () => ok('https://sandesh.example.com/'),
    setServerUrl: (url) => ok(url),
    getAppInfo: () => ok({ version: '1.0.0', platform: 'linux' }),
    openExternal: () => ok(null),
    getDeviceId: () => ok('2f1c9e0a-7d4b-4c1e-9a55-0b8f3d6e1a22'),
    ...overrides,
  };
}

describe('createDesktopPlatform', () => {
  it('reads the keychain token and treats a keychain failure as no session', async () => {
    expect(await createDesktopPlatform(fakeBridge()).session.load()).toBe('token-1');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const locked = createDesktopPlatform(fakeBridge({ getSessionToken: () => fail('locked') }));
    expect(await locked.session.load()).toBeNull();
    warn.mockRestore();
  });

  it('reports a failure to keep the token so the caller can say so', async () => {
    const platform = createDesktopPlatform(fakeBridge({ setSessionToken: () => fail('denied') }));
    await expect(platform.session.save('t')).rejects.toThrow('denied');
  });

  it('asks the bridge for the server once and drops trailing slashes', async () => {
    const getServerUrl = vi.fn(() => ok('https://sandesh.example.com//'));
    const platform = createDesktopPlatform(fakeBridge({ getServerUrl }));
    expect(await platform.serverUrl()).toBe('https://sandesh.example.com');
    expect(await platform.serverUrl()).toBe('https://sandesh.example.com');
    expect(getServerUrl).toHaveBeenCalledTimes(1);
    expect(platform.kind).toBe('desktop');
  });

  it('asks the bridge for the device id once, and answers null (asking again later) when it fails', async () => {
    const getDeviceId = vi.fn(() => ok('2f1c9e0a-7d4b-4c1e-9a55-0b8f3d6e1a22'));
    const platform = createDesktopPlatform(fakeBridge({ getDeviceId }));
    expect(await platform.deviceId()).toBe('2f1c9e0a-7d4b-4c1e-9a55-0b8f3d6e1a22');
    expect(await platform.deviceId()).toBe('2f1c9e0a-7d4b-4c1e-9a55-0b8f3d6e1a22');
    expect(getDeviceId).toHaveBeenCalledTimes(1);

    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const failing = vi.fn(() => fail<string>('read-only settings'));
    const broken = createDesktopPlatform(fakeBridge({ getDeviceId: failing }));
    expect(await broken.deviceId()).toBeNull();
    expect(await broken.deviceId()).toBeNull();
    expect(failing).toHaveBeenCalledTimes(2);
    warn.mockRestore();
  });

  it('shows campaign notifications through the bridge, and a refused one is only logged', async () => {
    const notify = vi.fn(() => ok(null));
    await createDesktopPlatform(fakeBridge({ spreadsheets: fakeSpreadsheets({ notify }) })).notify('Campaign completed', 'Diwali: 10 delivered');
    expect(notify).toHaveBeenCalledWith('Campaign completed', 'Diwali: 10 delivered');

    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const refused = createDesktopPlatform(fakeBridge({ spreadsheets: fakeSpreadsheets({ notify: () => fail('no notification daemon') }) }));
    await expect(refused.notify('t', 'b')).resolves.toBeUndefined();
    const rejected = createDesktopPlatform(fakeBridge({ spreadsheets: fakeSpreadsheets({ notify: () => Promise.reject(new Error('IPC closed')) }) }));
    await expect(rejected.notify('t', 'b')).resolves.toBeUndefined();
    expect(warn).toHaveBeenCalledTimes(2);
    warn.mockRestore();
  });
});
