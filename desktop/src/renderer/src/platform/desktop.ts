import type { BridgeResult, DesktopBridge, DesktopSpreadsheets } from '@shared/desktop';
import { desktopSpreadsheets, lazyWebSpreadsheets } from './spreadsheets';
import type { Platform } from './types';

function unwrap<T>(result: BridgeResult<T>): T {
  if (result.ok) return result.value;
  throw new Error(result.error);
}

/** Trailing slashes would double up with the `/api/...` paths. */
function normaliseServerUrl(url: string): string {
  return url.replace(/\/+$/, '');
}

/**
 * The Electron shell keeps the session token in the OS keychain and serves the app from
 * app://sandesh/ with a HashRouter, so navigation is done on the hash.
 */
export function createDesktopPlatform(bridge: DesktopBridge): Platform {
  // An app whose preload predates local spreadsheet parsing has no spreadsheets part: it reads files as the browser does.
  const spreadsheetsBridge = (bridge as DesktopBridge & { spreadsheets?: DesktopSpreadsheets }).spreadsheets;
  let serverUrl: Promise<string> | null = null;
  let deviceId: Promise<string | null> | null = null;
  return {
    kind: 'desktop',
    session: {
      async load() {
        try {
          return unwrap(await bridge.getSessionToken());
        } catch (error) {
          // A locked or unavailable keychain means "not signed in", not a broken app.
          console.warn('Could not read the session token from the keychain', error);
          return null;
        }
      },
      async save(token) {
        unwrap(await bridge.setSessionToken(token));
      },
      async clear() {
        try {
          unwrap(await bridge.clearSessionToken());
        } catch (error) {
          console.warn('Could not clear the session token from the keychain', error);
        }
      },
    },
    serverUrl() {
      serverUrl ??= bridge.getServerUrl().then(unwrap).then(normaliseServerUrl);
      return serverUrl;
    },
    deviceId() {
      deviceId ??= bridge
        .getDeviceId()
        .then(unwrap)
        .catch((error: unknown) => {
          // Without it a sign-in counts as a new device (the server errs on telling): not fatal.
          console.warn('Could not read the device id from the desktop settings', error);
          deviceId = null;
          return null;
        });
      return deviceId;
    },
    reloadTo(path) {
      window.location.hash = `#${path}`;
      window.location.reload();
    },
    async notify(title, body) {
      try {
        const result = await bridge.spreadsheets.notify(title, body);
        if (!result.ok) console.warn('Could not show the notification', result.error);
      } catch (error) {
        console.warn('Could not show the notification', error);
      }
    },
    spreadsheets: spreadsheetsBridge ? desktopSpreadsheets(spreadsheetsBridge) : lazyWebSpreadsheets(),
  };
}
