import { lazyWebSpreadsheets } from './spreadsheets';
import type { Platform } from './types';

/** The browser keeps the session in an httpOnly cookie that script cannot (and need not) touch. */
export const webPlatform: Platform = {
  kind: 'web',
  session: {
    load: () => Promise.resolve(null),
    save: () => Promise.resolve(),
    clear: () => Promise.resolve(),
  },
  serverUrl: () => Promise.resolve(''),
  deviceId: () => Promise.resolve(null),
  reloadTo(path) {
    window.location.assign(path);
  },
  spreadsheets: lazyWebSpreadsheets(),
};
