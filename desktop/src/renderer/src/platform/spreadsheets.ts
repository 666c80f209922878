import type { BridgeResult, DesktopSpreadsheets } from '@shared/desktop';
import type { SpreadsheetProgress } from '@shared/spreadsheets';
import type { SpreadsheetAccess } from './spreadsheetTypes';
import type { createWebSpreadsheets } from './webSpreadsheets';

/** The web shell's limit, known before its module loads (webSpreadsheets.ts checks it again). */
const WEB_MAX_FILE_BYTES = 200 * 1024 * 1024;

function unwrap<T>(result: BridgeResult<T>): T {
  if (result.ok) return result.value;
  throw new Error(result.error);
}

/**
 * The browser's spreadsheets: the worker (with the shared reader) and the upload client load on the first call,
 * from the send screens only, so the first page load does not carry them.
 */
export function lazyWebSpreadsheets(): SpreadsheetAccess {
  const listeners = new Set<(progress: SpreadsheetProgress) => void>();
  const emit = (progress: SpreadsheetProgress) => {
    for (const listener of listeners) listener(progress);
  };
  type Loaded = ReturnType<typeof createWebSpreadsheets>;
  let loaded: Promise<Loaded> | null = null;
  const load = (): Promise<Loaded> => {
    loaded ??= import('./webSpreadsheets').then((module) => module.createWebSpreadsheets(emit));
    return loaded;
  };
  return {
    pick: null,
    maxFileBytes: WEB_MAX_FILE_BYTES,
    openDropped: async (file) => (await load()).openDropped(file),
    recent: () => Promise.resolve([]),
    parse: async (fileId) => (await load()).parse(fileId),
    prepare: async (fileId, mapping) => (await load()).prepare(fileId, mapping),
    saveInvalidRows: async (preparedId) => (await load()).saveInvalidRows(preparedId),
    upload: async (preparedId) => (await load()).upload(preparedId),
    pauseUpload: async (preparedId) => (await load()).pauseUpload(preparedId),
    resumeUpload: async (preparedId) => (await load()).resumeUpload(preparedId),
    onProgress(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    setTaskbarProgress: () => undefined,
  };
}

/** The desktop's spreadsheets: the bridge's calls with their results unwrapped (errors thrown as catalogue texts). */
export function desktopSpreadsheets(bridge: DesktopSpreadsheets): SpreadsheetAccess {
  return {
    pick: async () => unwrap(await bridge.pick()),
    maxFileBytes: null,
    openDropped: async (file) => unwrap(await bridge.openDropped(file)),
    recent: async () => unwrap(await bridge.recent()),
    parse: async (fileId) => unwrap(await bridge.parse(fileId)),
    prepare: async (fileId, mapping) => unwrap(await bridge.prepare(fileId, mapping)),
    saveInvalidRows: async (preparedId) => unwrap(await bridge.saveInvalidRows(preparedId)),
    upload: async (preparedId) => unwrap(await bridge.upload(preparedId)),
    pauseUpload: async (preparedId) => {
      unwrap(await bridge.pauseUpload(preparedId));
    },
    resumeUpload: async (preparedId) => unwrap(await bridge.resumeUpload(preparedId)),
    onProgress: (listener) => bridge.onProgress(listener),
    setTaskbarProgress(fraction) {
      // The taskbar bar is a nicety: a failure to set it must not disturb the send.
      void bridge.setTaskbarProgress(fraction).catch(() => undefined);
    },
  };
}
