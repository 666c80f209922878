/**
 * The typed bridge between the Electron renderer and the main process. The preload implements
 * `DesktopBridge` with one IPC channel per method (names below, shared by both sides) and exposes
 * it as `window.desktop`. The renderer reaches it only through its `platform/` module.
 */

/** Every bridge call answers this shape; errors never throw across the boundary. */
export type BridgeResult<T> = { ok: true; value: T } | { ok: false; error: string };

export interface DesktopAppInfo {
  version: string;
  platform: string;
}

export interface DesktopBridge {
  /** The session token kept in the OS keychain for the configured server, or null. */
  getSessionToken(): Promise<BridgeResult<string | null>>;
  /** Stores the session token in the OS keychain (after login). */
  setSessionToken(token: string): Promise<BridgeResult<null>>;
  /** Deletes the session token from the OS keychain (at logout). */
  clearSessionToken(): Promise<BridgeResult<null>>;
  /** The server the app talks to, e.g. `https://sandesh.example.com`. */
  getServerUrl(): Promise<BridgeResult<string>>;
  /** Changes the server URL (http or https, no path); answers the normalised URL. */
  setServerUrl(url: string): Promise<BridgeResult<string>>;
  /** Version and OS of the desktop app. */
  getAppInfo(): Promise<BridgeResult<DesktopAppInfo>>;
  /** Opens an http(s) link in the system browser. */
  openExternal(url: string): Promise<BridgeResult<null>>;
  /** This install's stable device id, sent at sign-in so the server knows the app as one device. */
  getDeviceId(): Promise<BridgeResult<string>>;
}

/** IPC channel names: one per bridge method, defined once for preload and main. */
export const DESKTOP_CHANNELS = {
  getSessionToken: 'session:get-token',
  setSessionToken: 'session:set-token',
  clearSessionToken: 'session:clear-token',
  getServerUrl: 'settings:get-server-url',
  setServerUrl: 'settings:set-server-url',
  getAppInfo: 'app:get-info',
  openExternal: 'shell:open-external',
  getDeviceId: 'settings:get-device-id',
} as const satisfies Record<keyof DesktopBridge, string>;

export type DesktopChannel = (typeof DESKTOP_CHANNELS)[keyof typeof DESKTOP_CHANNELS];

/** The custom scheme and host the desktop renderer is served from. */
export const DESKTOP_APP_SCHEME = 'app';
export const DESKTOP_APP_HOST = 'sandesh';
export const DESKTOP_APP_ORIGIN = `${DESKTOP_APP_SCHEME}://${DESKTOP_APP_HOST}`;

/** Service name under which the OS keychain holds the session token. */
export const KEYCHAIN_SERVICE = 'in.sandesh.desktop';
