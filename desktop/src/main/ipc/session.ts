/**
 * Session IPC: the session token for the configured server, kept in the OS keychain.
 */
import { z } from 'zod';
import type { SessionTokenStore } from '../keychain';
import type { SettingsStore } from '../settings';
import { settle, type BridgeHandlers, type ErrorLogger } from './result';

export const MAX_SESSION_TOKEN_LENGTH = 4096;

/**
 * A session token as the server issues it. Whitespace and control characters are refused: the
 * token travels in an `Authorization` header, where they would be invalid or an injection.
 */
export const ZSessionToken = z
  .string({ error: 'The session token must be text' })
  .min(1, { error: 'The session token is empty' })
  .max(MAX_SESSION_TOKEN_LENGTH, { error: 'The session token is too long' })
  .regex(/^[\x21-\x7e]+$/, { error: 'The session token contains invalid characters' });

export interface SessionHandlerDeps {
  keychain: SessionTokenStore;
  settings: Pick<SettingsStore, 'getServerUrl'>;
  log?: ErrorLogger;
}

export function createSessionHandlers(
  deps: SessionHandlerDeps,
): BridgeHandlers<'getSessionToken' | 'setSessionToken' | 'clearSessionToken'> {
  const { keychain, settings, log } = deps;
  return {
    getSessionToken: () =>
      settle('session:get-token', 'Could not read the saved session from the system keychain', async () =>
        keychain.getToken(await settings.getServerUrl()), log),

    setSessionToken: (token) =>
      settle('session:set-token', 'Could not save the session in the system keychain', async () => {
        const valid = ZSessionToken.parse(token);
        await keychain.setToken(await settings.getServerUrl(), valid);
        return null;
      }, log),

    clearSessionToken: () =>
      settle('session:clear-token', 'Could not remove the session from the system keychain', async () => {
        await keychain.clearToken(await settings.getServerUrl());
        return null;
      }, log),
  };
}
