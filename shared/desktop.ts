/**
 * The typed bridge between the Electron renderer and the main process. The preload implements
 * `DesktopBridge` with one IPC channel per method (names below, shared by both sides) and exposes
 * it as `window.desktop`. The renderer reaches it only through its `platform/` module.
 */

import type { PreparedSpreadsheet, SpreadsheetFileRef, SpreadsheetMapping, SpreadsheetProgress, SpreadsheetSummary, SpreadsheetUpload } from './spreadsheets';

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
  /** Local spreadsheets, uploads and native touches: `window.desktop.spreadsheets`. */
  spreadsheets: DesktopSpreadsheets;
}

/** The bridge's top-level calls, each on its own channel in DESKTOP_CHANNELS. */
export type DesktopBridgeMethod = Exclude<keyof DesktopBridge, 'spreadsheets'>;

/**
 * `DesktopBridge['spreadsheets']`, `window.desktop.spreadsheets`. Spreadsheets are
 * parsed in a worker thread of the main process, never in the main or renderer thread. Paths stay
 * in the main process; the renderer holds opaque ids.
 */
export interface DesktopSpreadsheets {
  /** Shows the open dialog (.csv, .csv.gz, .gz, .xlsx); null when the user cancels. */
  pick(): Promise<BridgeResult<SpreadsheetFileRef | null>>;
  /** A file dropped on a send screen (the preload resolves its path with webUtils.getPathForFile). */
  openDropped(file: File): Promise<BridgeResult<SpreadsheetFileRef>>;
  /** Recently opened spreadsheets that still exist, newest first. */
  recent(): Promise<BridgeResult<SpreadsheetFileRef[]>>;
  /** Parses the whole file; progress arrives through onProgress. */
  parse(fileId: string): Promise<BridgeResult<SpreadsheetSummary>>;
  /** Checks the mapping over every row and writes the normalised rows as gzip CSV. */
  prepare(fileId: string, mapping: SpreadsheetMapping): Promise<BridgeResult<PreparedSpreadsheet>>;
  /** Saves every invalid row with its reason as CSV where the user chooses; false when cancelled. */
  saveInvalidRows(preparedId: string): Promise<BridgeResult<boolean>>;
  /** Uploads the normalised file through the resumable uploads API; answers the upload's id when complete. */
  upload(preparedId: string): Promise<BridgeResult<SpreadsheetUpload>>;
  pauseUpload(preparedId: string): Promise<BridgeResult<null>>;
  /** Resumes a paused upload, or one left by an earlier run of the app. */
  resumeUpload(preparedId: string): Promise<BridgeResult<SpreadsheetUpload>>;
  /** Uploads not yet complete (kept in the app's settings across restarts). */
  pendingUploads(): Promise<BridgeResult<SpreadsheetUpload[]>>;
  /** Progress events of parse, prepare and upload; answers the unsubscribe. */
  onProgress(listener: (progress: SpreadsheetProgress) => void): () => void;
  /** The taskbar/dock progress bar: 0..1, or -1 to remove it. */
  setTaskbarProgress(fraction: number): Promise<BridgeResult<null>>;
  /** A native notification (campaign completed or failed); clicking it focuses the app. */
  notify(title: string, body: string): Promise<BridgeResult<null>>;
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
} as const satisfies Record<DesktopBridgeMethod, string>;

/** One channel per spreadsheets call (onProgress is the one event channel, main to renderer). */
export const SPREADSHEET_CHANNELS = {
  pick: 'spreadsheets:pick',
  openDropped: 'spreadsheets:open-dropped',
  recent: 'spreadsheets:recent',
  parse: 'spreadsheets:parse',
  prepare: 'spreadsheets:prepare',
  saveInvalidRows: 'spreadsheets:save-invalid-rows',
  upload: 'spreadsheets:upload',
  pauseUpload: 'spreadsheets:pause-upload',
  resumeUpload: 'spreadsheets:resume-upload',
  pendingUploads: 'spreadsheets:pending-uploads',
  onProgress: 'spreadsheets:progress',
  setTaskbarProgress: 'app:set-taskbar-progress',
  notify: 'app:notify',
} as const satisfies Record<keyof DesktopSpreadsheets, string>;

export type DesktopChannel = (typeof DESKTOP_CHANNELS)[keyof typeof DESKTOP_CHANNELS];

/** The custom scheme and host the desktop renderer is served from. */
export const DESKTOP_APP_SCHEME = 'app';
export const DESKTOP_APP_HOST = 'sandesh';
export const DESKTOP_APP_ORIGIN = `${DESKTOP_APP_SCHEME}://${DESKTOP_APP_HOST}`;

/** Service name under which the OS keychain holds the session token. */
export const KEYCHAIN_SERVICE = 'in.sandesh.desktop';
