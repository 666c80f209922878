/**
 * Wires the bridge handlers to `ipcMain.handle`: one channel per DESKTOP_CHANNELS entry, and every
 * call checked to come from the app's own top-level page before its handler runs.
 */
import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import { DESKTOP_CHANNELS, SPREADSHEET_CHANNELS, type BridgeResult, type DesktopBridgeMethod } from '@shared/desktop';
import type { SessionTokenStore } from '../keychain';
import { isAllowedAppOrigin } from '../security';
import type { SettingsStore } from '../settings';
import { createAppHandlers } from './app';
import { fail, type BridgeHandlers, type ErrorLogger } from './result';
import { createSessionHandlers } from './session';
import { createSettingsHandlers } from './settings';
import { createShellHandlers } from './shell';
import { SPREADSHEET_INVOKE_METHODS, type ProgressTarget, type SpreadsheetHandlers } from './spreadsheets';

export interface DesktopHandlerDeps {
  keychain: SessionTokenStore;
  settings: SettingsStore;
  openExternal: (url: string) => Promise<void>;
  appInfo: { version: string; platform: string };
  log?: ErrorLogger;
}

/** Every bridge method's main-process handler, built from its dependencies. */
export function createDesktopHandlers(deps: DesktopHandlerDeps): BridgeHandlers {
  return {
    ...createSessionHandlers({ keychain: deps.keychain, settings: deps.settings, log: deps.log }),
    ...createSettingsHandlers({ settings: deps.settings, log: deps.log }),
    ...createAppHandlers(deps.appInfo),
    ...createShellHandlers({ openExternal: deps.openExternal, log: deps.log }),
  };
}

/** The part of the invoke event the sender check reads; a structural slice so tests can fake it. */
export type SenderEvent = Pick<IpcMainInvokeEvent, 'senderFrame'>;

/**
 * True when the call comes from the top-level frame of a page on an allowed origin. A destroyed
 * or navigated-away frame (`senderFrame` null) and any subframe are refused.
 */
export function isTrustedSender(event: SenderEvent, extraOrigins: readonly string[] = []): boolean {
  const frame = event.senderFrame;
  if (!frame) return false;
  if (frame.parent !== null) return false;
  return isAllowedAppOrigin(frame.url, extraOrigins);
}

export const UNTRUSTED_SENDER_ERROR = 'Refused: the request did not come from the Sandesh app';

type AnyHandler = (...args: unknown[]) => Promise<BridgeResult<unknown>>;

export interface RegisterOptions {
  /** Origins allowed besides app://sandesh (the dev server in development). */
  extraOrigins?: readonly string[];
  log?: ErrorLogger;
}

/**
 * Registers one `ipcMain.handle` per channel. Returns a function that removes them again
 * (tests; a future hot reload of the main process).
 */
export function registerDesktopIpc(
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>,
  handlers: BridgeHandlers,
  options: RegisterOptions = {},
): () => void {
  const extraOrigins = options.extraOrigins ?? [];
  const log = options.log;
  const methods = Object.keys(DESKTOP_CHANNELS) as DesktopBridgeMethod[];
  for (const method of methods) {
    const channel = DESKTOP_CHANNELS[method];
    const handler: AnyHandler = handlers[method];
    ipcMain.handle(channel, async (event, ...args: unknown[]) => {
      if (!isTrustedSender(event, extraOrigins)) {
        log?.(`${channel}: untrusted sender`, event.senderFrame?.url ?? 'no frame');
        return fail(UNTRUSTED_SENDER_ERROR);
      }
      try {
        return await handler(...args);
      } catch (error) {
        // Handlers settle their own errors; this only guards against a bug escaping one.
        log?.(channel, error);
        return fail('Unexpected error in the desktop app');
      }
    });
  }
  return () => {
    for (const method of methods) ipcMain.removeHandler(DESKTOP_CHANNELS[method]);
  };
}

/** The part of the invoke event the spreadsheets channels read: the sender check and where progress goes. */
export type SpreadsheetSenderEvent = SenderEvent & { sender: ProgressTarget };

/**
 * Registers the spreadsheets channels (SPREADSHEET_CHANNELS; `spreadsheets:progress` is the one
 * event channel, sent to the caller, not handled). The same sender check as the other channels;
 * each handler gets the calling page's webContents for its progress events.
 */
export function registerSpreadsheetIpc(
  ipcMain: { handle(channel: string, listener: (event: SpreadsheetSenderEvent, ...args: unknown[]) => Promise<unknown>): void; removeHandler(channel: string): void },
  handlers: SpreadsheetHandlers,
  options: RegisterOptions = {},
): () => void {
  const extraOrigins = options.extraOrigins ?? [];
  const log = options.log;
  for (const method of SPREADSHEET_INVOKE_METHODS) {
    const channel = SPREADSHEET_CHANNELS[method];
    const handler = handlers[method] as (caller: ProgressTarget, ...args: unknown[]) => Promise<BridgeResult<unknown>>;
    ipcMain.handle(channel, async (event, ...args: unknown[]) => {
      if (!isTrustedSender(event, extraOrigins)) {
        log?.(`${channel}: untrusted sender`, event.senderFrame?.url ?? 'no frame');
        return fail(UNTRUSTED_SENDER_ERROR);
      }
      try {
        return await handler(event.sender, ...args);
      } catch (error) {
        log?.(channel, error);
        return fail('Unexpected error in the desktop app');
      }
    });
  }
  return () => {
    for (const method of SPREADSHEET_INVOKE_METHODS) ipcMain.removeHandler(SPREADSHEET_CHANNELS[method]);
  };
}
