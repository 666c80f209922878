import { SESSION } from '@shared/constants';

/**
 * Seconds before the timeout at which the warning opens: two minutes by the spec, but never more
 * than half the timeout, so that a short timeout configured on the server still leaves a stretch
 * of quiet use before the warning.
 */
export function warningLeadSeconds(idleTimeoutSeconds: number): number {
  return Math.min(SESSION.warningLeadSeconds, Math.floor(idleTimeoutSeconds / 2));
}

/**
 * Where an inactivity logout lands: the login page, told why, so that a person who walked away
 * does not wonder whether they were signed out by mistake.
 */
export const INACTIVITY_LOGIN_PATH = '/login?reason=inactivity';

/** True when the login page was reached by an inactivity logout (its query string). */
export function isInactivityLogout(search: string): boolean {
  return new URLSearchParams(search).get('reason') === 'inactivity';
}

/** Whole seconds left before "Resend code" is offered again; never negative. */
export function resendWaitSeconds(sentAtMs: number, nowMs: number, waitSeconds: number): number {
  return Math.max(0, Math.ceil((sentAtMs + waitSeconds * 1000 - nowMs) / 1000));
}

/** m:ss, as in "1:05"; never negative. */
export function formatCountdown(totalSeconds: number): string {
  const seconds = Math.max(0, Math.ceil(totalSeconds));
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  return `${minutes}:${String(rest).padStart(2, '0')}`;
}

export type InactivityPhase =
  | { phase: 'active' }
  | { phase: 'warning'; remainingSeconds: number }
  | { phase: 'expired' };

/** Where a session stands after `idleMs` without activity. */
export function inactivityPhase(idleMs: number, idleTimeoutSeconds: number): InactivityPhase {
  const remainingSeconds = Math.ceil((idleTimeoutSeconds * 1000 - idleMs) / 1000);
  if (remainingSeconds <= 0) return { phase: 'expired' };
  if (remainingSeconds <= warningLeadSeconds(idleTimeoutSeconds)) return { phase: 'warning', remainingSeconds };
  return { phase: 'active' };
}

/**
 * Reports activity to the server at most once per `intervalMs`: the first activity after a quiet
 * spell goes out at once, later ones are folded into one trailing report. (A pure trailing
 * debounce would never fire while someone scrolls without pause, and the server would end a
 * session that is in use.)
 */
export class ActivityReporter {
  private lastSentAt = Number.NEGATIVE_INFINITY;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly send: () => void,
    private readonly intervalMs: number = SESSION.activityDebounceMs,
    private readonly now: () => number = Date.now,
  ) {}

  notify(): void {
    if (this.timer) return;
    const wait = this.lastSentAt + this.intervalMs - this.now();
    if (wait <= 0) {
      this.flush();
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush();
    }, wait);
  }

  /** Sends now regardless of the interval (Stay Logged In). */
  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    this.lastSentAt = this.now();
    this.send();
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
