/**
 * How the main process signs its upload requests in, as the renderer does for its API calls
 * (renderer/src/api/client.ts): the session token saved in the OS keychain for the configured
 * server as a bearer token, marked as the desktop client, with this install's device id.
 */
import { DESKTOP_CLIENT_HEADER, DESKTOP_CLIENT_VALUE, DEVICE_ID_HEADER } from '@shared/constants';
import type { SessionTokenStore } from '../keychain';
import type { SettingsStore } from '../settings';

/**
 * The headers for `createUploadClient({ authHeaders })`. Without a saved token there is no
 * Authorization header, and the server's 401 tells the user to sign in again.
 */
export function desktopAuthHeaders(deps: { keychain: Pick<SessionTokenStore, 'getToken'>; settings: Pick<SettingsStore, 'getServerUrl' | 'getDeviceId'> }): () => Promise<Record<string, string>> {
  return async () => {
    const [token, deviceId] = await Promise.all([deps.settings.getServerUrl().then((url) => deps.keychain.getToken(url)), deps.settings.getDeviceId()]);
    return {
      [DESKTOP_CLIENT_HEADER]: DESKTOP_CLIENT_VALUE,
      [DEVICE_ID_HEADER]: deviceId,
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    };
  };
}
