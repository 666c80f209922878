import { useSyncExternalStore } from 'react';
import { setNetworkTroubleHandler } from '../api/client';
import { createConnectionMonitor, type ConnectionStatus } from '../lib/connection';
import { platform } from '../platform';

const HEALTH_TIMEOUT_MS = 10_000;

/** This tab's one view of whether the server can be reached (lib/connection.ts). */
export const connectionMonitor = createConnectionMonitor({
  isOnline: () => navigator.onLine,
  onNetworkChange(listener) {
    window.addEventListener('online', listener);
    window.addEventListener('offline', listener);
    return () => {
      window.removeEventListener('online', listener);
      window.removeEventListener('offline', listener);
    };
  },
  async checkHealth() {
    // fetch rather than the API client: its failures are what report trouble in the first place.
    const response = await fetch(`${await platform.serverUrl()}/api/health`, {
      cache: 'no-store',
      credentials: 'omit',
      signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS),
    });
    return response.ok;
  },
  now: () => Date.now(),
  setTimer: (callback, ms) => window.setTimeout(callback, ms),
  clearTimer: (handle) => window.clearTimeout(handle as number),
});

// A request of the app that got no answer at all asks for a check.
setNetworkTroubleHandler(() => connectionMonitor.reportTrouble());

/** Online, offline (no network) or unreachable (server not answering, retrying with backoff). */
export function useOnline(): ConnectionStatus {
  return useSyncExternalStore(connectionMonitor.subscribe, connectionMonitor.status, () => ({ kind: 'online' }) as const);
}
