import type { SpreadsheetAccess } from './spreadsheetTypes';

/** Where the session token lives between launches. */
export interface SessionPersistence {
  /** The kept token, or null when there is none (always null on the web: the cookie is httpOnly). */
  load(): Promise<string | null>;
  save(token: string): Promise<void>;
  clear(): Promise<void>;
}

export interface Platform {
  kind: 'web' | 'desktop';
  session: SessionPersistence;
  /** Origin of the API server without a trailing slash; '' means the page's own origin. */
  serverUrl(): Promise<string>;
  /**
   * The desktop app's stable device id, sent with its requests so the server knows this install
   * at sign-in; null on the web (the browser's device cookie is httpOnly) or when unavailable.
   */
  deviceId(): Promise<string | null>;
  /**
   * Leaves the app for `path` with a full page load, so that no in-memory state survives
   * (used after an automatic logout).
   */
  reloadTo(path: string): void;
  /**
   * A system notification (a campaign completed or failed); clicking it brings the app forward.
   * The desktop shows a native one; the web only when the user has already allowed notifications
   * for the site (it never asks). Never throws: a notification that cannot be shown is skipped.
   */
  notify(title: string, body: string): Promise<void>;
  /** Spreadsheets parsed, checked and uploaded on this computer. */
  spreadsheets: SpreadsheetAccess;
}
