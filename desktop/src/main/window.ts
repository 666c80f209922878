/**
 * The main window and the navigation rules every web page in the app lives under.
 */
import { BrowserWindow, shell, type WebContents } from 'electron';
import { decideNavigation, decideWindowOpen, secureWebPreferences } from './security';

function openInBrowser(url: string): void {
  shell.openExternal(url).catch((error: unknown) => {
    console.error('[desktop] could not open link in the browser:', error);
  });
}

/**
 * Applies the navigation rules to any web contents (installed for all of them from
 * `web-contents-created`, so a window created by mistake is covered too): no new Electron windows,
 * no navigation away from the app, no <webview>. Vetted http(s) links go to the system browser.
 */
export function hardenWebContents(contents: WebContents, extraOrigins: readonly string[]): void {
  contents.setWindowOpenHandler(({ url }) => {
    if (decideWindowOpen(url) === 'open-external') openInBrowser(url);
    return { action: 'deny' };
  });

  const guardNavigation = (event: { preventDefault(): void }, url: string): void => {
    const decision = decideNavigation(url, extraOrigins);
    if (decision === 'allow') return;
    event.preventDefault();
    if (decision === 'open-external') openInBrowser(url);
  };
  contents.on('will-navigate', guardNavigation);
  // Redirects and subframe navigations are only ever refused: they are not user clicks, so
  // nothing is opened in the browser for them.
  const refuseForeign = (event: { url: string; preventDefault(): void }): void => {
    if (decideNavigation(event.url, extraOrigins) !== 'allow') event.preventDefault();
  };
  contents.on('will-redirect', refuseForeign);
  contents.on('will-frame-navigate', refuseForeign);

  contents.on('will-attach-webview', (event) => event.preventDefault());
}

export interface MainWindowOptions {
  preloadPath: string;
  /** `app://sandesh/` in production, the electron-vite dev server in development. */
  startUrl: string;
}

export function createMainWindow(options: MainWindowOptions): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 960,
    minHeight: 640,
    title: 'Sandesh',
    // Shown once the first paint is ready, so the user never sees a blank white frame.
    show: false,
    autoHideMenuBar: true,
    webPreferences: secureWebPreferences(options.preloadPath),
  });
  window.once('ready-to-show', () => window.show());
  void window.loadURL(options.startUrl);
  return window;
}
