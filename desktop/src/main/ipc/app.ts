/**
 * App IPC: facts about the desktop app itself.
 */
import type { DesktopAppInfo } from '@shared/desktop';
import { settle, type BridgeHandlers } from './result';

/** `version` from `app.getVersion()`, `platform` from `process.platform` in production. */
export function createAppHandlers(info: DesktopAppInfo): BridgeHandlers<'getAppInfo'> {
  // Copied once so that a caller mutating its object cannot change what later calls answer.
  const snapshot: DesktopAppInfo = { version: info.version, platform: info.platform };
  return {
    getAppInfo: () => settle('app:get-info', 'Could not read the app version', async () => ({ ...snapshot })),
  };
}
