import { useEffect, useRef, useSyncExternalStore } from 'react';
import type { TStreamEvent } from '@shared/schemas/notifications';
import { createLiveStream, type StreamOpener } from '../lib/liveStream';
import { platform } from '../platform';

/**
 * The browser's EventSource sends the session cookie. The desktop app authenticates with a bearer
 * token, which EventSource cannot send: there the stream stays shut and callers poll.
 */
const openEventSource: StreamOpener | null =
  platform.kind === 'web' && typeof EventSource !== 'undefined'
    ? (url, types, handlers) => {
        const source = new EventSource(url, { withCredentials: true });
        source.onopen = () => handlers.onOpen();
        source.onerror = () => handlers.onError(source.readyState === EventSource.CLOSED);
        for (const type of types) source.addEventListener(type, (event) => handlers.onEvent(type, String((event as MessageEvent<unknown>).data)));
        return { close: () => source.close() };
      }
    : null;

/** This tab's one connection to `/api/notifications/stream`. */
export const liveStream = createLiveStream({
  url: async () => `${await platform.serverUrl()}/api/notifications/stream`,
  open: openEventSource,
});

/**
 * Calls `listener` with each event of `type` while `enabled` (and the last few that came before).
 * The listener may change between renders without reconnecting.
 */
export function useLiveEvent<T>(type: TStreamEvent, listener: (data: T) => void, enabled = true): void {
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(() => {
    if (!enabled) return undefined;
    return liveStream.on(type, (data) => latest.current(data as T));
  }, [type, enabled]);
}

/** Whether the stream is delivering events now (callers poll slower while it is). */
export function useLiveStreamConnected(): boolean {
  return useSyncExternalStore(liveStream.onConnectedChange, liveStream.connected, () => false);
}
