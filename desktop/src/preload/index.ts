/**
 * The preload: exposes `window.desktop`, one method per bridge call, each a single
 * `ipcRenderer.invoke` on its channel. `ipcRenderer` itself is never exposed: a page holding it
 * could call any channel with any arguments. Runs sandboxed, so it is bundled to one CommonJS file
 * that requires nothing but `electron`.
 */
import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron';
import { DESKTOP_CHANNELS, SPREADSHEET_CHANNELS, type DesktopBridge, type DesktopSpreadsheets } from '@shared/desktop';
import type { SpreadsheetMapping, SpreadsheetProgress } from '@shared/spreadsheets';

/**
 * The path of a file dropped on (or chosen in) the page. A File the page made itself has none (''),
 * and anything that is not a File makes getPathForFile throw: both go to the main process as ''
 * and come back as its refusal, so the call still answers a BridgeResult.
 */
function droppedFilePath(file: File): string {
  try {
    return webUtils.getPathForFile(file);
  } catch {
    return '';
  }
}

const spreadsheets = {
  pick: () => ipcRenderer.invoke(SPREADSHEET_CHANNELS.pick),
  // Only the path crosses to the main process, which checks it names an existing spreadsheet.
  openDropped: (file: File) => ipcRenderer.invoke(SPREADSHEET_CHANNELS.openDropped, droppedFilePath(file)),
  recent: () => ipcRenderer.invoke(SPREADSHEET_CHANNELS.recent),
  parse: (fileId: string) => ipcRenderer.invoke(SPREADSHEET_CHANNELS.parse, fileId),
  prepare: (fileId: string, mapping: SpreadsheetMapping) => ipcRenderer.invoke(SPREADSHEET_CHANNELS.prepare, fileId, mapping),
  saveInvalidRows: (preparedId: string) => ipcRenderer.invoke(SPREADSHEET_CHANNELS.saveInvalidRows, preparedId),
  upload: (preparedId: string) => ipcRenderer.invoke(SPREADSHEET_CHANNELS.upload, preparedId),
  pauseUpload: (preparedId: string) => ipcRenderer.invoke(SPREADSHEET_CHANNELS.pauseUpload, preparedId),
  resumeUpload: (preparedId: string) => ipcRenderer.invoke(SPREADSHEET_CHANNELS.resumeUpload, preparedId),
  pendingUploads: () => ipcRenderer.invoke(SPREADSHEET_CHANNELS.pendingUploads),
  onProgress: (listener: (progress: SpreadsheetProgress) => void) => {
    // The page gets the payload only, never the IPC event (which carries `sender`).
    const forward = (_event: IpcRendererEvent, progress: SpreadsheetProgress): void => listener(progress);
    ipcRenderer.on(SPREADSHEET_CHANNELS.onProgress, forward);
    return () => {
      ipcRenderer.removeListener(SPREADSHEET_CHANNELS.onProgress, forward);
    };
  },
  setTaskbarProgress: (fraction: number) => ipcRenderer.invoke(SPREADSHEET_CHANNELS.setTaskbarProgress, fraction),
  notify: (title: string, body: string) => ipcRenderer.invoke(SPREADSHEET_CHANNELS.notify, title, body),
} satisfies DesktopSpreadsheets;

const bridge = {
  getSessionToken: () => ipcRenderer.invoke(DESKTOP_CHANNELS.getSessionToken),
  setSessionToken: (token: string) => ipcRenderer.invoke(DESKTOP_CHANNELS.setSessionToken, token),
  clearSessionToken: () => ipcRenderer.invoke(DESKTOP_CHANNELS.clearSessionToken),
  getServerUrl: () => ipcRenderer.invoke(DESKTOP_CHANNELS.getServerUrl),
  setServerUrl: (url: string) => ipcRenderer.invoke(DESKTOP_CHANNELS.setServerUrl, url),
  getAppInfo: () => ipcRenderer.invoke(DESKTOP_CHANNELS.getAppInfo),
  openExternal: (url: string) => ipcRenderer.invoke(DESKTOP_CHANNELS.openExternal, url),
  getDeviceId: () => ipcRenderer.invoke(DESKTOP_CHANNELS.getDeviceId),
  spreadsheets,
} satisfies DesktopBridge;

contextBridge.exposeInMainWorld('desktop', bridge);
