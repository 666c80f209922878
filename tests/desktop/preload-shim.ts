/**
 * The built preload (out/preload/index.cjs) run inside a Chromium page without Electron, shared by
 * the desktop renderer tests. A stand-in `electron` module answers `ipcRenderer.invoke` through a
 * Playwright binding (`__sandeshIpcInvoke`) to main-process listeners running in the test process,
 * and keeps the page's `ipcRenderer.on` listeners so the test can push events into the page as
 * `webContents.send` would (`sendToPage`).
 */
import { readFileSync } from 'node:fs';
import type { BrowserContext, Page } from '@playwright/test';

export const IPC_INVOKE_BINDING = '__sandeshIpcInvoke';
const LISTENERS_GLOBAL = '__sandeshIpcListeners';

/** The init script: the stand-in `electron` module and the built preload, wrapped as Electron wraps a sandboxed preload. */
export function preloadInitScript(preloadFile: string): string {
  const preloadSource = readFileSync(preloadFile, 'utf8');
  return `(() => {
  const listeners = new Map();
  Object.defineProperty(window, '${LISTENERS_GLOBAL}', { value: listeners, writable: false, configurable: false });
  const electronShim = {
    contextBridge: {
      exposeInMainWorld(key, api) {
        Object.defineProperty(window, key, { value: Object.freeze({ ...api }), writable: false, configurable: false });
      },
    },
    ipcRenderer: {
      invoke: (channel, ...args) => window.${IPC_INVOKE_BINDING}(channel, ...args),
      on: (channel, listener) => {
        if (!listeners.has(channel)) listeners.set(channel, new Set());
        listeners.get(channel).add(listener);
      },
      removeListener: (channel, listener) => {
        listeners.get(channel)?.delete(listener);
      },
    },
    webUtils: { getPathForFile: () => '' },
  };
  const preloadModule = { exports: {} };
  const preloadRequire = (name) => {
    if (name !== 'electron') throw new Error('a sandboxed preload can only require electron, not ' + name);
    return electronShim;
  };
  (function (require, module, exports) {
${preloadSource}
  })(preloadRequire, preloadModule, preloadModule.exports);
})();`;
}

/** What a main-process listener sees of the invoke event: the calling frame, and where events go. */
export interface ShimInvokeEvent {
  senderFrame: { url: string; parent: unknown };
  sender: { send(channel: string, payload: unknown): void; isDestroyed(): boolean };
}

/** Delivers `payload` on `channel` to the page's `ipcRenderer.on` listeners (as `webContents.send`). */
export async function sendToPage(page: Page, channel: string, payload: unknown): Promise<void> {
  if (page.isClosed()) return;
  await page.evaluate(
    // A string expression: the desktop tests compile without the DOM library.
    `(() => { const registry = window.${LISTENERS_GLOBAL}; for (const listener of registry?.get(${JSON.stringify(channel)}) ?? []) listener({}, ${JSON.stringify(payload)}); })()`,
  );
}

/**
 * Installs the preload and the invoke binding in `context`. `lookup` finds the main-process
 * listener of a channel; each call gets an event naming the calling frame and a `sender` that
 * pushes events back into the calling page, in order.
 */
export async function installPreloadShim(
  context: BrowserContext,
  preloadFile: string,
  lookup: (channel: string) => ((event: ShimInvokeEvent, ...args: unknown[]) => Promise<unknown>) | undefined,
  onCall: (channel: string) => void = () => undefined,
): Promise<void> {
  await context.exposeBinding(IPC_INVOKE_BINDING, async (source, channel: unknown, ...args: unknown[]) => {
    const listener = lookup(String(channel));
    if (!listener) throw new Error(`No handler registered for '${String(channel)}'`);
    onCall(String(channel));
    const { frame, page } = source;
    // Events are pushed one after another so the page sees them in the order they were sent.
    let delivery = Promise.resolve();
    const event: ShimInvokeEvent = {
      senderFrame: { url: frame.url(), parent: frame.parentFrame() },
      sender: {
        send: (eventChannel, payload) => {
          delivery = delivery.then(() => sendToPage(page, eventChannel, payload)).catch(() => undefined);
        },
        isDestroyed: () => page.isClosed(),
      },
    };
    const answer = await listener(event, ...args);
    // Progress sent before the answer reaches the page before the answer does, as with real IPC.
    await delivery;
    return answer;
  });
  await context.addInitScript({ content: preloadInitScript(preloadFile) });
}
