/**
 * Settings IPC: which server the app talks to.
 */
import type { SettingsStore } from '../settings';
import { settle, type BridgeHandlers, type ErrorLogger } from './result';

export interface SettingsHandlerDeps {
  settings: SettingsStore;
  log?: ErrorLogger;
}

export function createSettingsHandlers(
  deps: SettingsHandlerDeps,
): BridgeHandlers<'getServerUrl' | 'setServerUrl'> {
  const { settings, log } = deps;
  return {
    getServerUrl: () =>
      settle('settings:get-server-url', 'Could not read the server setting', () => settings.getServerUrl(), log),

    // The store validates with ZServerUrl; its ZodError becomes the answer's message.
    setServerUrl: (url) =>
      settle('settings:set-server-url', 'Could not save the server setting', () => settings.setServerUrl(url), log),
  };
}
