/**
 * Electron main process entry: app lifecycle and wiring only. Every rule lives in a module that
 * can be tested without Electron (security, protocol, settings, keychain, ipc/*).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, dialog, ipcMain, Notification, protocol, session, shell, type OpenDialogOptions, type SaveDialogOptions } from 'electron';
import { DESKTOP_APP_ORIGIN } from '@shared/desktop';
import { registerDesktopIpc, createDesktopHandlers, registerSpreadsheetIpc } from './ipc/register';
import { checkSpreadsheetPath, createLocalSpreadsheetHandlers, spreadsheetPathsFromArgs } from './ipc/spreadsheets';
import { createKeychainStore } from './keychain';
import { APP_SCHEME_PRIVILEGES, registerAppProtocol } from './protocol';
import { buildContentSecurityPolicy, isPermissionAllowed } from './security';
import { createSettingsStore, type SettingsStore } from './settings';
import type { LocalSpreadsheets } from './spreadsheets';
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
let settingsStore: SettingsStore | null = null;
let localSpreadsheets: LocalSpreadsheets | null = null;
/** Shown notifications, kept referenced so that a click still reaches its handler. */
const shownNotifications = new Set<Notification>();
/** Spreadsheets the OS asked the app to open (file associations) before the settings were ready. */
const openedBeforeReady: string[] = [];

function focusMainWindow(): void {
  if (!mainWindow) return;
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.focus();
}

/**
 * A spreadsheet opened from the file manager (file associations): it goes to the front of the
 * recent files, which the send screens offer, and the window comes forward.
 */
function rememberOpenedSpreadsheet(filePath: string): void {
  if (!settingsStore) {
    openedBeforeReady.push(filePath);
    return;
  }
  const store = settingsStore;
  checkSpreadsheetPath(filePath)
    .then((checked) => store.addRecentFile(checked))
    .catch((error: unknown) => console.warn('[desktop] ignoring a file the system asked to open:', error));
  focusMainWindow();
}

function showNotification(title: string, body: string): void {
  if (!Notification.isSupported()) return;
  const notification = new Notification({ title, body });
  shownNotifications.add(notification);
  notification.on('click', () => {
    focusMainWindow();
    shownNotifications.delete(notification);
  });
  notification.on('close', () => shownNotifications.delete(notification));
  notification.show();
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
  const log = (context: string, error: unknown): void => console.error(`[desktop ipc] ${context}:`, error);
  registerDesktopIpc(ipcMain, handlers, { extraOrigins, log });

  const keychain = createKeychainStore();
  const local = createLocalSpreadsheetHandlers({
    workDir: path.join(app.getPath('userData'), 'spreadsheets'),
    settings,
    keychain,
    dialogs: {
      async openSpreadsheet({ title, filters }) {
        const options: OpenDialogOptions = { title, filters, properties: ['openFile'] };
        const answer = mainWindow ? await dialog.showOpenDialog(mainWindow, options) : await dialog.showOpenDialog(options);
        return answer.canceled ? null : (answer.filePaths[0] ?? null);
      },
      async saveFile({ title, filters, defaultName }) {
        const options: SaveDialogOptions = { title, filters, defaultPath: defaultName };
        const answer = mainWindow ? await dialog.showSaveDialog(mainWindow, options) : await dialog.showSaveDialog(options);
        return answer.canceled || !answer.filePath ? null : answer.filePath;
      },
    },
    notify: showNotification,
    // A negative value removes the bar (Electron's setProgressBar).
    setTaskbarProgress: (fraction) => mainWindow?.setProgressBar(fraction),
    log,
  });
  localSpreadsheets = local.spreadsheets;
  registerSpreadsheetIpc(ipcMain, local.handlers, { extraOrigins, log });
  settingsStore = settings;
  for (const filePath of openedBeforeReady.splice(0)) rememberOpenedSpreadsheet(filePath);
  for (const filePath of spreadsheetPathsFromArgs(process.argv.slice(1))) rememberOpenedSpreadsheet(filePath);

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

  app.on('second-instance', (_event, argv) => {
    for (const filePath of spreadsheetPathsFromArgs(argv.slice(1))) rememberOpenedSpreadsheet(filePath);
    focusMainWindow();
  });
  // macOS hands files opened from the Finder (file associations) to this event, also before ready.
  app.on('open-file', (event, filePath) => {
    event.preventDefault();
    rememberOpenedSpreadsheet(filePath);
  });
  app.on('will-quit', () => {
    void localSpreadsheets?.close();
  });
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
