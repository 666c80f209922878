import { useCallback, useEffect, useRef, useState } from 'react';
import { SESSION } from '@shared/constants';
import { authApi } from '../../api/auth';
import { toApiError } from '../../api/client';
import { usePublicConfig } from '../../context/publicConfig';
import { ActivityReporter, inactivityPhase } from '../../lib/inactivity';
import { useSessionStore } from '../../stores/sessionStore';
import { SessionTimeoutDialog } from './SessionTimeoutDialog';
import { useLogout } from '../../hooks/useLogout';

const ACTIVITY_EVENTS = ['mousedown', 'mousemove', 'keypress', 'scroll', 'touchstart', 'click'] as const;
const TICK_MS = 1_000;

/**
 * Keeps a signed-in session honest: asks the server every 30 s and when the tab becomes visible
 * whether the session is still alive, and runs the inactivity timer with its warning dialog.
 * Mounted only while someone is signed in.
 */
export function SessionManager() {
  const logout = useLogout();
  const publicConfig = usePublicConfig();
  const serverIdle = useSessionStore((state) => state.idleTimeoutSeconds);
  const idleTimeoutSeconds = serverIdle ?? publicConfig.idleTimeoutSeconds;

  const [remainingSeconds, setRemainingSeconds] = useState<number | null>(null);
  // Set when the timer starts: reading the clock during render would make rendering impure.
  const lastActivityRef = useRef<number | null>(null);
  const warningOpenRef = useRef(false);
  const loggingOutRef = useRef(false);
  const reporterRef = useRef<ActivityReporter | null>(null);

  /** `inactivity`: the login page then says why the person was signed out. */
  const handleAutomaticLogout = useCallback(
    (inactivity: boolean) => {
      if (loggingOutRef.current) return;
      loggingOutRef.current = true;
      void logout({ automatic: true, inactivity });
    },
    [logout],
  );

  const handleLogoutNow = useCallback(() => {
    if (loggingOutRef.current) return;
    loggingOutRef.current = true;
    void logout();
  }, [logout]);

  // Server session check (spec 000 §4.1): 401 ends the session; a network error does not.
  useEffect(() => {
    let cancelled = false;
    const check = async () => {
      try {
        const me = await authApi.me({ quiet: true });
        if (!cancelled && useSessionStore.getState().isAuthenticated) useSessionStore.getState().setUser(me.user);
      } catch (error) {
        const apiError = toApiError(error);
        // The server's own idle timeout answers `session_expired`; other 401s (a password change elsewhere) are not inactivity.
        if (!cancelled && apiError.status === 401) handleAutomaticLogout(apiError.code === 'session_expired');
      }
    };
    const interval = setInterval(() => void check(), SESSION.checkIntervalMs);
    const handleVisibilityChange = () => {
      if (document.visibilityState === 'visible') void check();
    };
    document.addEventListener('visibilitychange', handleVisibilityChange);
    return () => {
      cancelled = true;
      clearInterval(interval);
      document.removeEventListener('visibilitychange', handleVisibilityChange);
    };
  }, [handleAutomaticLogout]);

  // Inactivity timer (spec 000 §4.2).
  useEffect(() => {
    const reporter = new ActivityReporter(() => {
      authApi.resetActivity().catch((error: unknown) => console.warn('Could not report activity', error));
    });
    reporterRef.current = reporter;
    lastActivityRef.current ??= Date.now();
    let lastStoreUpdate = 0;

    const handleActivity = () => {
      // While the warning is up only its buttons decide; moving the mouse towards them must not.
      if (warningOpenRef.current) return;
      const now = Date.now();
      lastActivityRef.current = now;
      reporter.notify();
      if (now - lastStoreUpdate >= TICK_MS) {
        lastStoreUpdate = now;
        useSessionStore.getState().updateLastActivity();
      }
    };

    const tick = () => {
      const now = Date.now();
      const phase = inactivityPhase(now - (lastActivityRef.current ?? now), idleTimeoutSeconds);
      if (phase.phase === 'expired') {
        warningOpenRef.current = false;
        setRemainingSeconds(null);
        handleAutomaticLogout(true);
      } else if (phase.phase === 'warning') {
        warningOpenRef.current = true;
        setRemainingSeconds(phase.remainingSeconds);
      } else {
        warningOpenRef.current = false;
        setRemainingSeconds(null);
      }
    };

    for (const name of ACTIVITY_EVENTS) window.addEventListener(name, handleActivity, { passive: true, capture: true });
    const interval = setInterval(tick, TICK_MS);
    return () => {
      for (const name of ACTIVITY_EVENTS) window.removeEventListener(name, handleActivity, { capture: true });
      clearInterval(interval);
      reporter.dispose();
      reporterRef.current = null;
    };
  }, [idleTimeoutSeconds, handleAutomaticLogout]);

  const handleStay = useCallback(() => {
    lastActivityRef.current = Date.now();
    warningOpenRef.current = false;
    setRemainingSeconds(null);
    useSessionStore.getState().updateLastActivity();
    reporterRef.current?.flush();
  }, []);

  return (
    <SessionTimeoutDialog remainingSeconds={remainingSeconds} onStay={handleStay} onLogout={handleLogoutNow} />
  );
}
