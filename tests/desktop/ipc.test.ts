/**
 * The desktop bridge end to end in one process: the real preload module (with Electron's
 * contextBridge/ipcRenderer replaced by an in-memory IPC that structured-clones like the real one),
 * the real `registerDesktopIpc` sender check, the real handlers, the real keychain store on the OS
 * keychain and the real settings store in a temporary directory. The spreadsheets part runs the
 * real `registerSpreadsheetIpc` and handlers over files in a temporary directory, with the local
 * spreadsheet module, upload client, dialogs, notifier and taskbar faked (it needs no keychain).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { IpcMainInvokeEvent } from 'electron';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { DESKTOP_CHANNELS, SPREADSHEET_CHANNELS, type DesktopBridge, type DesktopBridgeMethod } from '@shared/desktop';
import { messages } from '@shared/messages';
import type { SpreadsheetProgress } from '@shared/spreadsheets';
import { createKeychainStore } from '../../desktop/src/main/keychain';
import { createDesktopHandlers, registerDesktopIpc, registerSpreadsheetIpc, UNTRUSTED_SENDER_ERROR } from '../../desktop/src/main/ipc/register';
import { createSpreadsheetHandlers } from '../../desktop/src/main/ipc/spreadsheets';
import { createSettingsStore, DEFAULT_SERVER_URL, SETTINGS_FILE } from '../../desktop/src/main/settings';
import { secretServiceUnavailableReason, TEST_ENTRY_OPTIONS, TEST_KEYCHAIN_SERVICE } from './secret-service';

type Listener = (event: IpcMainInvokeEvent, ...args: unknown[]) => Promise<unknown>;

/** Shared between the `electron` mock (hoisted above the imports) and the tests. */
const ipc = vi.hoisted(() => {
  const listeners = new Map<string, Listener>();
  const exposed = new Map<string, unknown>();
  // The page the calls claim to come from; tests switch it to play a foreign page.
  const sender = { url: 'app://sandesh/login' };
  // Main-to-renderer events: what `ipcRenderer.on` registered, per channel.
  const rendererListeners = new Map<string, Set<(event: unknown, ...args: unknown[]) => void>>();
  // What webUtils.getPathForFile answers for a File (a dropped file's path); '' for any other.
  const filePaths = new WeakMap<object, string>();
  return { listeners, exposed, sender, rendererListeners, filePaths };
});

vi.mock('electron', () => {
  const invoke = async (channel: string, ...args: unknown[]): Promise<unknown> => {
    const listener = ipc.listeners.get(channel);
    if (!listener) throw new Error(`No handler registered for '${channel}'`);
    // `sender.send` plays webContents.send: it reaches the renderer's `ipcRenderer.on` listeners.
    const webContents = {
      isDestroyed: () => false,
      send: (eventChannel: string, ...payload: unknown[]) => {
        for (const rendererListener of ipc.rendererListeners.get(eventChannel) ?? []) rendererListener({ sender: 'ipc-renderer' }, ...structuredClone(payload));
      },
    };
    const event = { senderFrame: { url: ipc.sender.url, parent: null }, sender: webContents } as unknown as IpcMainInvokeEvent;
    // Electron serialises arguments and results with the structured clone algorithm.
    return structuredClone(await listener(event, ...structuredClone(args)));
  };
  type RendererListener = (event: unknown, ...args: unknown[]) => void;
  return {
    ipcRenderer: {
      invoke,
      on: (channel: string, listener: RendererListener) => {
        const set = ipc.rendererListeners.get(channel) ?? new Set<RendererListener>();
        set.add(listener);
        ipc.rendererListeners.set(channel, set);
      },
      removeListener: (channel: string, listener: RendererListener) => void ipc.rendererListeners.get(channel)?.delete(listener),
    },
    webUtils: {
      // As Electron's: '' for a File with no path on disk, a TypeError for anything else.
      getPathForFile: (file: object) => {
        if (!(file instanceof File)) throw new TypeError('getPathForFile expects a File');
        return ipc.filePaths.get(file) ?? '';
      },
    },
    contextBridge: { exposeInMainWorld: (key: string, api: unknown) => ipc.exposed.set(key, api) },
  };
});

// Loading the real preload runs its exposeInMainWorld('desktop', bridge).
await import('../../desktop/src/preload/index');
const exposedBridge = ipc.exposed.get('desktop') as DesktopBridge;

const fakeIpcMain = {
  handle: (channel: string, listener: Listener) => void ipc.listeners.set(channel, listener),
  removeHandler: (channel: string) => void ipc.listeners.delete(channel),
};

const unavailable = await secretServiceUnavailableReason();
if (unavailable) console.warn(`[ipc.test] skipped: ${unavailable}`);

let settingsDir = '';
let unregister: () => void = () => undefined;
const opened: string[] = [];
let bridge: DesktopBridge;

/** What a compromised page could send: any channel, any arguments. */
const rawInvoke = async (channel: string, ...args: unknown[]): Promise<unknown> => {
  const electron = await import('electron');
  return electron.ipcRenderer.invoke(channel, ...args);
};

describe(`desktop bridge over IPC with the real keychain and settings${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  beforeAll(async () => {
    if (unavailable) return;
    settingsDir = await mkdtemp(path.join(tmpdir(), 'sandesh-ipc-'));
    const handlers = createDesktopHandlers({
      keychain: createKeychainStore({ service: TEST_KEYCHAIN_SERVICE, entryOptions: TEST_ENTRY_OPTIONS }),
      settings: createSettingsStore({ dir: settingsDir, env: {} }),
      openExternal: async (url) => void opened.push(url),
      appInfo: { version: '9.9.9', platform: process.platform },
      log: () => undefined,
    });
    unregister = registerDesktopIpc(fakeIpcMain, handlers, { log: () => undefined });
    bridge = exposedBridge;
  });

  afterAll(async () => {
    if (unavailable) return;
    ipc.sender.url = 'app://sandesh/login';
    // Leave no test items in the keychain, for both servers used below.
    await bridge.clearSessionToken();
    await bridge.setServerUrl(DEFAULT_SERVER_URL);
    await bridge.clearSessionToken();
    unregister();
    await rm(settingsDir, { recursive: true, force: true });
  });

  beforeEach((context) => {
    if (unavailable) context.skip(unavailable);
    ipc.sender.url = 'app://sandesh/login';
  });

  it('exposes exactly the bridge methods, each on its own channel', () => {
    expect(Object.keys(bridge).sort()).toEqual([...Object.keys(DESKTOP_CHANNELS), 'spreadsheets'].sort());
    expect(Object.keys(bridge.spreadsheets).sort()).toEqual(Object.keys(SPREADSHEET_CHANNELS).sort());
    expect([...ipc.listeners.keys()].sort()).toEqual(Object.values(DESKTOP_CHANNELS).sort());
  });

  it('answers the default server URL before any is saved', async () => {
    expect(await bridge.getServerUrl()).toEqual({ ok: true, value: DEFAULT_SERVER_URL });
  });

  it('sets a token, reads it, clears it, and then reads null', async () => {
    expect(await bridge.getSessionToken()).toEqual({ ok: true, value: null });
    expect(await bridge.setSessionToken('desktop-session-abc123')).toEqual({ ok: true, value: null });
    expect(await bridge.getSessionToken()).toEqual({ ok: true, value: 'desktop-session-abc123' });
    expect(await bridge.clearSessionToken()).toEqual({ ok: true, value: null });
    expect(await bridge.getSessionToken()).toEqual({ ok: true, value: null });
    expect(await bridge.clearSessionToken()).toEqual({ ok: true, value: null });
  });

  it('keeps one session per server when the server URL changes', async () => {
    await bridge.setSessionToken('token-local');
    expect(await bridge.setServerUrl('HTTPS://Sandesh.Example.com/')).toEqual({
      ok: true,
      value: 'https://sandesh.example.com',
    });
    const saved = JSON.parse(await readFile(path.join(settingsDir, SETTINGS_FILE), 'utf8')) as unknown;
    expect(saved).toEqual({ serverUrl: 'https://sandesh.example.com' });
    expect(await bridge.getSessionToken()).toEqual({ ok: true, value: null });
    await bridge.setSessionToken('token-remote');
    expect(await bridge.setServerUrl(DEFAULT_SERVER_URL)).toEqual({ ok: true, value: DEFAULT_SERVER_URL });
    expect(await bridge.getSessionToken()).toEqual({ ok: true, value: 'token-local' });
    await bridge.clearSessionToken();
    await bridge.setServerUrl('https://sandesh.example.com');
    expect(await bridge.getSessionToken()).toEqual({ ok: true, value: 'token-remote' });
    await bridge.clearSessionToken();
    await bridge.setServerUrl(DEFAULT_SERVER_URL);
  });

  it('refuses invalid tokens and leaves the keychain untouched', async () => {
    await bridge.setSessionToken('kept');
    expect(await bridge.setSessionToken('')).toEqual({ ok: false, error: 'The session token is empty' });
    expect(await bridge.setSessionToken('y'.repeat(4097))).toEqual({ ok: false, error: 'The session token is too long' });
    expect(await rawInvoke(DESKTOP_CHANNELS.setSessionToken, 42)).toMatchObject({ ok: false });
    expect(await rawInvoke(DESKTOP_CHANNELS.setSessionToken, { token: 'x' })).toMatchObject({ ok: false });
    expect(await rawInvoke(DESKTOP_CHANNELS.setSessionToken)).toMatchObject({ ok: false });
    expect(await bridge.getSessionToken()).toEqual({ ok: true, value: 'kept' });
    await bridge.clearSessionToken();
  });

  it('refuses invalid server URLs and keeps the saved one', async () => {
    for (const bad of ['', 'ftp://example.com', 'javascript:alert(1)', 'https://u:p@example.com', 'https://example.com/api']) {
      expect(await bridge.setServerUrl(bad)).toMatchObject({ ok: false });
    }
    expect(await rawInvoke(DESKTOP_CHANNELS.setServerUrl, null)).toMatchObject({ ok: false });
    expect(await bridge.getServerUrl()).toEqual({ ok: true, value: DEFAULT_SERVER_URL });
  });

  it('opens only vetted web links', async () => {
    expect(await bridge.openExternal('https://www.whatsapp.com/')).toEqual({ ok: true, value: null });
    expect(await bridge.openExternal('file:///etc/passwd')).toEqual({
      ok: false,
      error: 'Only http and https links can be opened',
    });
    expect(await rawInvoke(DESKTOP_CHANNELS.openExternal, ['https://x.example'])).toMatchObject({ ok: false });
    expect(opened).toEqual(['https://www.whatsapp.com/']);
  });

  it('answers the app info', async () => {
    expect(await bridge.getAppInfo()).toEqual({ ok: true, value: { version: '9.9.9', platform: process.platform } });
  });

  it('refuses every call from a page that is not the app', async () => {
    await bridge.setSessionToken('secret-session');
    ipc.sender.url = 'https://evil.example/';
    for (const method of Object.keys(DESKTOP_CHANNELS) as DesktopBridgeMethod[]) {
      expect(await rawInvoke(DESKTOP_CHANNELS[method], 'https://x.example')).toEqual({
        ok: false,
        error: UNTRUSTED_SENDER_ERROR,
      });
    }
    ipc.sender.url = 'app://sandesh/';
    expect(await bridge.getSessionToken()).toEqual({ ok: true, value: 'secret-session' });
    await bridge.clearSessionToken();
  });
});

describe('desktop bridge spreadsheets over IPC with the real handlers and files', () => {
  let dir = '';
  let unregisterSheets: () => void = () => undefined;
  const taskbar: number[] = [];
  const notified: string[][] = [];
  const sheets = exposedBridge.spreadsheets;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'sandesh-ipc-sheets-'));
    const opened = new Map<string, string>();
    const handlers = createSpreadsheetHandlers({
      spreadsheets: {
        open: async (filePath) => {
          const fileId = `file-${opened.size + 1}`;
          opened.set(fileId, filePath);
          return { fileId, filename: path.basename(filePath), size: (await readFile(filePath)).length };
        },
        parse: async (fileId, onProgress) => {
          for (const percent of [25, 100]) onProgress({ fileId, phase: 'parsing', rows: percent, bytes: percent, totalBytes: 100, percent });
          return { fileId, filename: 'contacts.csv', size: 100, rows: 100, header: ['phone'], sample: [], columns: [] };
        },
        prepare: async () => {
          throw new Error('not used here');
        },
        preparedFile: () => undefined,
        writeInvalidRows: async () => undefined,
        close: async () => undefined,
      },
      uploads: {
        upload: async () => {
          throw new Error('not used here');
        },
        pause: () => undefined,
        resume: async () => {
          throw new Error('not used here');
        },
        pending: async () => [],
      },
      dialogs: { openSpreadsheet: async () => null, saveFile: async () => null },
      recentFiles: createSettingsStore({ dir: path.join(dir, 'settings'), env: {} }),
      notify: (title, body) => void notified.push([title, body]),
      setTaskbarProgress: (fraction) => void taskbar.push(fraction),
      log: () => undefined,
    });
    unregisterSheets = registerSpreadsheetIpc(fakeIpcMain, handlers, { log: () => undefined });
  });

  afterAll(async () => {
    unregisterSheets();
    await rm(dir, { recursive: true, force: true });
  });

  beforeEach(() => {
    ipc.sender.url = 'app://sandesh/send';
  });

  it('handles every spreadsheets call on its own channel; progress is an event channel only', () => {
    const calls = Object.entries(SPREADSHEET_CHANNELS).filter(([method]) => method !== 'onProgress').map(([, channel]) => channel);
    for (const channel of calls) expect(ipc.listeners.has(channel), channel).toBe(true);
    expect(ipc.listeners.has(SPREADSHEET_CHANNELS.onProgress)).toBe(false);
  });

  it('opens a dropped file by the path the preload resolves, and refuses one without a path', async () => {
    const filePath = path.join(dir, 'contacts.csv');
    await writeFile(filePath, 'phone\n919876543210\n');
    const dropped = new File(['phone'], 'contacts.csv');
    ipc.filePaths.set(dropped, filePath);
    expect(await sheets.openDropped(dropped)).toEqual({ ok: true, value: { fileId: 'file-1', filename: 'contacts.csv', size: 19 } });
    // A File the page built itself has no path on disk.
    expect(await sheets.openDropped(new File(['x'], 'made-up.csv'))).toEqual({ ok: false, error: messages.desktopFiles.pathInvalid });
    expect(await sheets.openDropped({ name: 'contacts.csv' } as unknown as File)).toEqual({ ok: false, error: messages.desktopFiles.pathInvalid });
    expect((await sheets.recent()).ok).toBe(true);
  });

  it('delivers progress to onProgress listeners, and an unsubscribe removes only its own listener', async () => {
    const first: SpreadsheetProgress[] = [];
    const second: SpreadsheetProgress[] = [];
    const stopFirst = sheets.onProgress((progress) => first.push(progress));
    const stopSecond = sheets.onProgress((progress) => second.push(progress));
    expect(await sheets.parse('file-1')).toMatchObject({ ok: true, value: { rows: 100 } });
    expect(first.map((p) => p.percent)).toEqual([25, 100]);
    expect(second.map((p) => p.percent)).toEqual([25, 100]);
    stopFirst();
    await sheets.parse('file-1');
    expect(first).toHaveLength(2);
    expect(second).toHaveLength(4);
    stopSecond();
    expect(ipc.rendererListeners.get(SPREADSHEET_CHANNELS.onProgress)?.size).toBe(0);
    expect(taskbar).toEqual([0.25, 1, -1, 0.25, 1, -1]);
  });

  it('validates taskbar progress and notifications, and refuses a foreign page', async () => {
    expect(await sheets.setTaskbarProgress(2)).toEqual({ ok: false, error: messages.desktopFiles.taskbarInvalid });
    expect(await sheets.notify('Campaign completed', 'Diwali: 10 delivered')).toEqual({ ok: true, value: null });
    ipc.sender.url = 'https://evil.example/';
    expect(await sheets.notify('x', 'y')).toEqual({ ok: false, error: UNTRUSTED_SENDER_ERROR });
    expect(await sheets.parse('file-1')).toEqual({ ok: false, error: UNTRUSTED_SENDER_ERROR });
    expect(notified).toEqual([['Campaign completed', 'Diwali: 10 delivered']]);
  });
});
