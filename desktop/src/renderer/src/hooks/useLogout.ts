import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { INACTIVITY_LOGIN_PATH } from '../lib/inactivity';
import { platform } from '../platform';
import { useSessionStore } from '../stores/sessionStore';

/**
 * Signing out: the server is told (failures ignored), every local trace goes, and the user lands
 * on /login. An automatic logout (expired or idle session) reloads the page so that nothing of
 * the old session survives in memory (spec 000 §4.1).
 */
export function useLogout(): (options?: { automatic?: boolean; inactivity?: boolean }) => Promise<void> {
  const navigate = useNavigate();
  return useCallback(
    async ({ automatic = false, inactivity = false } = {}) => {
      await useSessionStore.getState().logout();
      if (automatic) platform.reloadTo(inactivity ? INACTIVITY_LOGIN_PATH : '/login');
      else navigate('/login', { replace: true });
    },
    [navigate],
  );
}
