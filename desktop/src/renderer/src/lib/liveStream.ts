/**
 * One Server-Sent Events connection per tab on `/api/notifications/stream`, shared by
 * whoever listens: the header's bell (`notification`) and the send dialogs (`campaign_progress`).
 * It opens with the first listener and closes with the last; the browser's EventSource reconnects
 * by itself. Where EventSource cannot authenticate (the desktop app's bearer token) it never opens,
 * `connected` stays false, and callers keep polling.
 *
 * The last few `campaign_progress` events are kept and handed to a listener that subscribes later:
 * a send dialog opening a second after its campaign finished still sees how it ended. (Progress is
 * a state, safe to hand over again; a notification is not: a bell mounted again would put back
 * what was cleared meanwhile.)
 */
import { STREAM_EVENTS, type TStreamEvent } from '@shared/schemas/notifications';

/** What the stream tells its opener (an EventSource in the browser, a fake in tests). */
export interface StreamHandlers {
  onOpen(): void;
  /** `closed`: the browser gave up (e.g. the session ended) rather than reconnecting. */
  onError(closed: boolean): void;
  onEvent(type: TStreamEvent, data: string): void;
}

/** Opens the stream at `url`, reporting events of `types`; answers how to close it. */
export type StreamOpener = (url: string, types: readonly TStreamEvent[], handlers: StreamHandlers) => { close(): void };

type Listener = (data: unknown) => void;

/** Progress events kept for late listeners. */
const KEPT_PROGRESS = 20;

export interface LiveStream {
  /** Calls `listener` with each event of `type` (and the kept ones first); answers the unsubscribe. */
  on(type: TStreamEvent, listener: Listener): () => void;
  /** Whether events are flowing now (polling callers slow down while they are). */
  connected(): boolean;
  /** Calls `listener` when `connected()` changes; answers the unsubscribe. */
  onConnectedChange(listener: () => void): () => void;
}

export function createLiveStream(deps: { url: () => Promise<string>; open: StreamOpener | null }): LiveStream {
  const listeners = new Map<TStreamEvent, Set<Listener>>();
  const kept = new Map<TStreamEvent, unknown[]>();
  const connectedListeners = new Set<() => void>();
  let stream: { close(): void } | null = null;
  let opening = false;
  let isConnected = false;

  const setConnected = (value: boolean) => {
    if (isConnected === value) return;
    isConnected = value;
    for (const listener of [...connectedListeners]) listener();
  };

  const listenerCount = () => [...listeners.values()].reduce((sum, set) => sum + set.size, 0);

  const deliver = (type: TStreamEvent, text: string) => {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      return;
    }
    if (type === STREAM_EVENTS.campaignProgress) {
      const list = kept.get(type) ?? [];
      list.push(data);
      if (list.length > KEPT_PROGRESS) list.shift();
      kept.set(type, list);
    }
    for (const listener of [...(listeners.get(type) ?? [])]) listener(data);
  };

  const open = () => {
    const opener = deps.open;
    if (!opener || stream || opening) return;
    opening = true;
    void deps.url().then(
      (url) => {
        opening = false;
        if (stream || listenerCount() === 0) return;
        const opened = opener(url, Object.values(STREAM_EVENTS), {
          onOpen: () => setConnected(true),
          onError: (closed) => {
            setConnected(false);
            // Closed for good: forget it, so that the next listener opens a new one.
            if (closed && stream === opened) {
              opened.close();
              stream = null;
            }
          },
          onEvent: deliver,
        });
        stream = opened;
      },
      () => {
        opening = false;
      },
    );
  };

  const close = () => {
    stream?.close();
    stream = null;
    kept.clear();
    setConnected(false);
  };

  return {
    on(type, listener) {
      const set = listeners.get(type) ?? new Set<Listener>();
      set.add(listener);
      listeners.set(type, set);
      for (const data of kept.get(type) ?? []) listener(data);
      open();
      return () => {
        set.delete(listener);
        if (listenerCount() === 0) close();
      };
    },
    connected: () => isConnected,
    onConnectedChange(listener) {
      connectedListeners.add(listener);
      return () => {
        connectedListeners.delete(listener);
      };
    },
  };
}
