/**
 * Whether the app can reach its server (offline banner), for both shells. The browser's
 * `navigator.onLine` says when there is no network at all; `/api/health` says whether the server
 * answers. While it does not, the check is retried with a growing delay (2 s, 4 s, ... at most
 * 60 s) and the banner says when the next try is; it hides itself once the server answers.
 *
 * Nothing polls while all is well: a check runs at start, when the network comes back, and when a
 * request of the app fails for want of an answer (`reportTrouble`).
 */

export type ConnectionStatus =
  | { kind: 'online' }
  /** The browser knows there is no network: wait for its `online` event. */
  | { kind: 'offline' }
  /** The network is there but the server does not answer; `retryAt` is null while a check runs. */
  | { kind: 'unreachable'; attempt: number; retryAt: number | null };

export interface ConnectionMonitorDeps {
  isOnline(): boolean;
  /** Calls `listener` on the browser's `online` and `offline` events; answers the unsubscribe. */
  onNetworkChange(listener: () => void): () => void;
  /** True when `/api/health` answered 2xx. */
  checkHealth(): Promise<boolean>;
  now(): number;
  setTimer(callback: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
}

export const FIRST_RETRY_MS = 2_000;
export const MAX_RETRY_MS = 60_000;

/** The wait before try `attempt + 1` after `attempt` failed checks (1-based): doubling, capped. */
export function retryDelayMs(attempt: number): number {
  const exponent = Math.max(0, Math.min(attempt - 1, 20));
  return Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** exponent);
}

/** Whole seconds left until `retryAt`, at least 1 while it lies ahead (for the banner's text). */
export function secondsUntil(retryAt: number, now: number): number {
  return Math.max(1, Math.ceil((retryAt - now) / 1000));
}

export interface ConnectionMonitor {
  status(): ConnectionStatus;
  /** Calls `listener` when the status changes; the first subscriber starts the monitor, the last stops it. */
  subscribe(listener: () => void): () => void;
  /** Checks now (the banner's "Retry now"); resolves when the check is done. */
  checkNow(): Promise<void>;
  /** A request got no answer: checks, unless a check or a retry is already under way. */
  reportTrouble(): void;
}

const ONLINE: ConnectionStatus = { kind: 'online' };
const OFFLINE: ConnectionStatus = { kind: 'offline' };

export function createConnectionMonitor(deps: ConnectionMonitorDeps): ConnectionMonitor {
  const listeners = new Set<() => void>();
  let current: ConnectionStatus = ONLINE;
  let attempt = 0;
  let timer: unknown = null;
  let checking: Promise<void> | null = null;
  let stopNetwork: (() => void) | null = null;

  const setStatus = (next: ConnectionStatus): void => {
    current = next;
    for (const listener of [...listeners]) listener();
  };

  const clearRetry = (): void => {
    if (timer !== null) deps.clearTimer(timer);
    timer = null;
  };

  const check = (): Promise<void> => {
    if (checking) return checking;
    clearRetry();
    if (!deps.isOnline()) {
      setStatus(OFFLINE);
      return Promise.resolve();
    }
    if (current.kind === 'unreachable') setStatus({ kind: 'unreachable', attempt, retryAt: null });
    checking = deps
      .checkHealth()
      .catch(() => false)
      .then((healthy) => {
        checking = null;
        // Stopped meanwhile (no one listens): leave no timer behind.
        if (listeners.size === 0) return;
        if (!deps.isOnline()) {
          setStatus(OFFLINE);
          return;
        }
        if (healthy) {
          attempt = 0;
          if (current.kind !== 'online') setStatus(ONLINE);
          return;
        }
        attempt += 1;
        const delay = retryDelayMs(attempt);
        timer = deps.setTimer(() => {
          timer = null;
          void check();
        }, delay);
        setStatus({ kind: 'unreachable', attempt, retryAt: deps.now() + delay });
      });
    return checking;
  };

  const onNetworkChange = (): void => {
    if (deps.isOnline()) {
      void check();
    } else {
      clearRetry();
      setStatus(OFFLINE);
    }
  };

  const start = (): void => {
    stopNetwork = deps.onNetworkChange(onNetworkChange);
    void check();
  };

  const stop = (): void => {
    stopNetwork?.();
    stopNetwork = null;
    clearRetry();
  };

  return {
    status: () => current,
    subscribe(listener) {
      listeners.add(listener);
      if (listeners.size === 1) start();
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) stop();
      };
    },
    checkNow: () => check(),
    reportTrouble() {
      if (listeners.size === 0 || checking || current.kind !== 'online') return;
      void check();
    },
  };
}
