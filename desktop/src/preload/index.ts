/**
 * The preload: exposes `window.desktop`, one method per bridge call, each a single
 * `ipcRenderer.invoke` on its channel. `ipcRenderer` itself is never exposed: a page holding it
 * could call any channel with any arguments. Runs sandboxed, so it is bundled to one CommonJS file
 * that requires nothing but `electron`.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { DESKTOP_CHANNELS, type DesktopBridge } from '@shared/desktop';

const bridge = {
  getSessionToken: () => ipcRenderer.invoke(DESKTOP_CHANNELS.getSessionToken),
  setSessionToken: (token: string) => ipcRenderer.invoke(DESKTOP_CHANNELS.setSessionToken, token),
  clearSessionToken: () => ipcRenderer.invoke(DESKTOP_CHANNELS.clearSessionToken),
  getServerUrl: () => ipcRenderer.invoke(DESKTOP_CHANNELS.getServerUrl),
  setServerUrl: (url: string) => ipcRenderer.invoke(DESKTOP_CHANNELS.setServerUrl, url),
  getAppInfo: () => ipcRenderer.invoke(DESKTOP_CHANNELS.getAppInfo),
  openExternal: (url: string) => ipcRenderer.invoke(DESKTOP_CHANNELS.openExternal, url),
  getDeviceId: () => ipcRenderer.invoke(DESKTOP_CHANNELS.getDeviceId),
} satisfies DesktopBridge;

contextBridge.exposeInMainWorld('desktop', bridge);
