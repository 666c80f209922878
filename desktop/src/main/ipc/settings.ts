/**
 * Settings IPC: which server the app talks to, and this install's device id.
 */
import type { SettingsStore } from '../settings';
import { settle, type BridgeHandlers, type ErrorLogger } from './result';

export interface SettingsHandlerDeps {
  settings: SettingsStore;
  log?: ErrorLogger;
}

export function createSettingsHandlers(
  deps: SettingsHandlerDeps,
): BridgeHandlers<'getServerUrl' | 'setServerUrl' | 'getDeviceId'> {
  const { settings, log } = deps;
  return {
    getServerUrl: () =>
      settle('settings:get-server-url', 'Could not read the server setting', () => settings.getServerUrl(), log),

    // The store validates with ZServerUrl; its ZodError becomes the answer's message.
    setServerUrl: (url) =>
      settle('settings:set-server-url', 'Could not save the server setting', () => settings.setServerUrl(url), log),

    getDeviceId: () => settle('settings:get-device-id', 'Could not read the device id from the settings', () => settings.getDeviceId(), log),
  };
}
