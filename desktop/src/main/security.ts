/**
 * Pure URL vetting and the renderer's Content-Security-Policy. Nothing here imports Electron so
 * that the rules can be unit-tested in plain Node; `window.ts` applies them.
 */
import type { WebPreferences } from 'electron';
import { DESKTOP_APP_HOST, DESKTOP_APP_SCHEME } from '@shared/desktop';

/** Longer links are refused: nothing the app shows is that long, and the OS handlers vary. */
export const MAX_EXTERNAL_URL_LENGTH = 2048;

function parseUrl(value: unknown): URL | null {
  if (typeof value !== 'string' || value.length === 0) return null;
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

/** True for URLs served by the app's own `app://sandesh` protocol. */
export function isAppUrl(value: unknown): boolean {
  const url = parseUrl(value);
  return url !== null && url.protocol === `${DESKTOP_APP_SCHEME}:` && url.host === DESKTOP_APP_HOST;
}

/**
 * True when a link may be handed to the system browser: http(s) only (never `file:`, `javascript:`,
 * `smb:` or custom handlers, which would let page content launch local programs), a real host, no
 * embedded credentials (a classic phishing disguise) and a sane length.
 */
export function isAllowedExternalUrl(value: unknown): boolean {
  if (typeof value !== 'string' || value.length > MAX_EXTERNAL_URL_LENGTH) return false;
  const url = parseUrl(value);
  if (url === null) return false;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (url.hostname.length === 0) return false;
  if (url.username !== '' || url.password !== '') return false;
  return true;
}

/**
 * Origins whose pages may load in the window. Production: only `app://sandesh`. Development:
 * electron-vite's dev server as well (passed in by `index.ts` only when the app is not packaged).
 */
export function isAllowedAppOrigin(value: unknown, extraOrigins: readonly string[] = []): boolean {
  if (isAppUrl(value)) return true;
  const url = parseUrl(value);
  return url !== null && extraOrigins.includes(url.origin);
}

export type NavigationDecision = 'allow' | 'open-external' | 'deny';

/**
 * What to do when the page tries to navigate (`will-navigate`, `will-redirect`): stay inside the
 * app, hand vetted web links to the system browser, refuse everything else.
 */
export function decideNavigation(url: string, extraOrigins: readonly string[] = []): NavigationDecision {
  if (isAllowedAppOrigin(url, extraOrigins)) return 'allow';
  return isAllowedExternalUrl(url) ? 'open-external' : 'deny';
}

/** `window.open` / `target=_blank` never creates an Electron window; web links go to the browser. */
export function decideWindowOpen(url: string): Exclude<NavigationDecision, 'allow'> {
  return isAllowedExternalUrl(url) ? 'open-external' : 'deny';
}

const RAZORPAY_CHECKOUT_ORIGIN = 'https://checkout.razorpay.com';
const RAZORPAY_ORIGINS = 'https://*.razorpay.com';

/**
 * The renderer's Content-Security-Policy. Scripts only from the app itself (no inline script,
 * no eval); network only to the app and the configured server; no plugins, frames or forms posting
 * elsewhere. `style-src 'unsafe-inline'` stays because the UI primitives (Radix) position popovers
 * with inline `style` attributes; styles cannot run code.
 *
 * @param serverOrigin the configured server, already normalised to an origin
 * @param extraConnectOrigins e.g. the dev server's websocket for hot reload in development
 */
export function buildContentSecurityPolicy(
  serverOrigin: string,
  extraConnectOrigins: readonly string[] = [],
): string {
  const connect = ["'self'", serverOrigin, RAZORPAY_ORIGINS, ...extraConnectOrigins].join(' ');
  const directives: Array<[string, string]> = [
    ['default-src', "'self'"],
    // The wallet loads the payment checkout script on demand: Razorpay's, or the server's
    // development sandbox (served by the configured server).
    ['script-src', `'self' ${serverOrigin} ${RAZORPAY_CHECKOUT_ORIGIN}`],
    ['style-src', "'self' 'unsafe-inline'"],
    ['img-src', `'self' data: blob: ${RAZORPAY_ORIGINS}`],
    ['font-src', "'self' data:"],
    ['connect-src', connect],
    // Spreadsheet parsing may run in a worker built from a blob URL.
    ['worker-src', "'self' blob:"],
    ['object-src', "'none'"],
    // Razorpay's checkout renders its payment window in its own frame.
    ['frame-src', RAZORPAY_ORIGINS],
    ['base-uri', "'none'"],
    ['form-action', "'none'"],
    ['frame-ancestors', "'none'"],
  ];
  return directives.map(([name, value]) => `${name} ${value}`).join('; ');
}

/**
 * The renderer's webPreferences: an isolated, sandboxed page with no Node.js, reaching the main
 * process only through the preload's bridge.
 */
export function secureWebPreferences(preloadPath: string): WebPreferences {
  return {
    preload: preloadPath,
    contextIsolation: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    sandbox: true,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    // Dropping a file on the window must not navigate away from the app.
    navigateOnDragDrop: false,
    safeDialogs: true,
  };
}

/** Permissions the renderer may use: copying (API keys, ids) and nothing else. */
export const ALLOWED_PERMISSIONS: ReadonlySet<string> = new Set(['clipboard-sanitized-write']);

/** Permission requests are granted only from the app's own pages and only for the allowed list. */
export function isPermissionAllowed(permission: string, requestingUrl: string, extraOrigins: readonly string[] = []): boolean {
  return ALLOWED_PERMISSIONS.has(permission) && isAllowedAppOrigin(requestingUrl, extraOrigins);
}
