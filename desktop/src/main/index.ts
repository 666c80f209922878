/**
 * Electron main process entry: app lifecycle and wiring only. Every rule lives in a module that
 * can be tested without Electron (security, protocol, settings, keychain, ipc/*).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, ipcMain, protocol, session, shell } from 'electron';
import { DESKTOP_APP_ORIGIN } from '@shared/desktop';
import { registerDesktopIpc, createDesktopHandlers } from './ipc/register';
import { createKeychainStore } from './keychain';
import { APP_SCHEME_PRIVILEGES, registerAppProtocol } from './protocol';
import { buildContentSecurityPolicy, isPermissionAllowed } from './security';
import { createSettingsStore } from './settings';
import { createMainWindow, hardenWebContents } from './window';

// Built layout: out/main/index.js beside out/preload/index.cjs and out/renderer/.
const here = path.dirname(fileURLToPath(import.meta.url));
const rendererDir = path.join(here, '../renderer');
const preloadPath = path.join(here, '../preload/index.cjs');

// electron-vite dev serves the renderer over http with hot reload; never trusted once packaged.
const devServerUrl = app.isPackaged ? undefined : process.env['ELECTRON_RENDERER_URL'];
const extraOrigins: readonly string[] = devServerUrl ? [new URL(devServerUrl).origin] : [];

// Both must happen before `ready`: privileges cannot be granted to a scheme afterwards, and
// enableSandbox covers every renderer, including any created by accident.
protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES]);
app.enableSandbox();

let mainWindow: BrowserWindow | null = null;

function focusMainWindow(): void {
  if (!mainWindow) return;
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.focus();
}

function openMainWindow(): void {
  mainWindow = createMainWindow({ preloadPath, startUrl: devServerUrl ?? `${DESKTOP_APP_ORIGIN}/` });
  mainWindow.on('closed', () => {
    mainWindow = null;
  });
}

async function start(): Promise<void> {
  const settings = createSettingsStore({
    dir: app.getPath('userData'),
    onWarning: (message) => console.warn(`[desktop settings] ${message}`),
  });
  const handlers = createDesktopHandlers({
    keychain: createKeychainStore(),
    settings,
    openExternal: (url) => shell.openExternal(url),
    appInfo: { version: app.getVersion(), platform: process.platform },
  });
  registerDesktopIpc(ipcMain, handlers, {
    extraOrigins,
    log: (context, error) => console.error(`[desktop ipc] ${context}:`, error),
  });

  // The CSP is read per response so that a changed server URL applies from the next page load.
  registerAppProtocol(protocol, rendererDir, async () => buildContentSecurityPolicy(await settings.getServerUrl()));

  session.defaultSession.setPermissionRequestHandler((contents, permission, callback) => {
    callback(isPermissionAllowed(permission, contents.getURL(), extraOrigins));
  });
  session.defaultSession.setPermissionCheckHandler((_contents, permission, requestingOrigin) =>
    isPermissionAllowed(permission, requestingOrigin, extraOrigins),
  );

  openMainWindow();
}

if (!app.requestSingleInstanceLock()) {
  // A second launch hands over to the running instance (which focuses its window) and exits.
  app.quit();
} else {
  if (process.platform === 'win32') app.setAppUserModelId('in.sandesh.desktop');

  app.on('second-instance', focusMainWindow);
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, extraOrigins));
  app.on('window-all-closed', () => {
    // macOS apps stay in the dock until Cmd+Q.
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('activate', () => {
    if (app.isReady() && BrowserWindow.getAllWindows().length === 0) openMainWindow();
  });

  app
    .whenReady()
    .then(start)
    .catch((error: unknown) => {
      console.error('[desktop] failed to start:', error);
      app.exit(1);
    });
}
