import { create } from 'zustand';
import type { TUser } from '@shared/types';
import { authApi } from '../api/auth';
import { setAuthToken, toApiError } from '../api/client';
import { clearAllStorage, readStoredUser, removeStoredUser, writeStoredUser } from '../lib/storage';
import { platform } from '../platform';
import { queryClient } from '../queryClient';
import { useUIStore } from './uiStore';

interface SignInOptions {
  /** Desktop only: the bearer token the login answered with. */
  token?: string;
  idleTimeoutSeconds?: number;
}

interface SessionState {
  user: TUser | null;
  isLoading: boolean;
  isAuthenticated: boolean;
  /** Epoch ms of the last user activity seen by this window. */
  lastActivity: number;
  /** The server's inactivity timeout, once a login or /me answer has told us. */
  idleTimeoutSeconds: number | null;

  /** Start-up (spec 000 §4.1): a stored user signs in at once, otherwise the server is asked. */
  initialize: () => Promise<void>;
  signIn: (user: TUser, options?: SignInOptions) => Promise<void>;
  setUser: (user: TUser) => void;
  /** Re-reads the user from the server; failures other than 401 keep what we have. */
  refreshUser: (options?: { fresh?: boolean }) => Promise<TUser | null>;
  /** The signed-out state after a 401: the stored user goes, nothing is called. */
  clearSession: () => void;
  /** Calls the server (failures ignored), then clears every trace of the session locally. */
  logout: () => Promise<void>;
  updateLastActivity: () => void;
}

let initializing: Promise<void> | null = null;

export const useSessionStore = create<SessionState>()((set, get) => {
  const applyUser = (user: TUser, idleTimeoutSeconds?: number) => {
    writeStoredUser(user);
    useUIStore.getState().setCreditBalance(user.creditBalance);
    set((state) => ({
      user,
      isAuthenticated: true,
      isLoading: false,
      idleTimeoutSeconds: idleTimeoutSeconds ?? state.idleTimeoutSeconds,
    }));
  };

  const signedOut = () => {
    removeStoredUser();
    useUIStore.getState().setCreditBalance(0);
    set({ user: null, isAuthenticated: false, isLoading: false });
  };

  /** Start-up with a stored user: the session check answers 200 either way (no failed request). */
  const confirmSession = async () => {
    try {
      const session = await authApi.session();
      if (!get().isAuthenticated) return;
      if (session.user) applyUser(session.user, session.idleTimeoutSeconds);
      else get().clearSession();
    } catch (error) {
      // Offline or a server error: keep the stored user; the next call will tell.
      console.warn('Could not confirm the session', error);
    }
  };

  return {
    user: null,
    isLoading: true,
    isAuthenticated: false,
    lastActivity: Date.now(),
    idleTimeoutSeconds: null,

    initialize: () => {
      initializing ??= (async () => {
        const token = await platform.session.load();
        setAuthToken(token);
        const stored = readStoredUser();
        if (stored) {
          // The stored user shows at once; the server's answer then confirms or ends the session.
          applyUser(stored);
          void confirmSession();
          return;
        }
        if (platform.kind === 'desktop' && !token) {
          signedOut();
          return;
        }
        try {
          const session = await authApi.session();
          if (session.user) applyUser(session.user, session.idleTimeoutSeconds);
          else signedOut();
        } catch {
          signedOut();
        }
      })();
      return initializing;
    },

    signIn: async (user, options = {}) => {
      if (options.token) {
        setAuthToken(options.token);
        try {
          await platform.session.save(options.token);
        } catch (error) {
          // The session still works until the app closes; it just will not survive a restart.
          console.warn('Could not keep the session token in the keychain', error);
        }
      }
      set({ lastActivity: Date.now() });
      applyUser(user, options.idleTimeoutSeconds);
    },

    setUser: (user) => applyUser(user),

    refreshUser: async (options = {}) => {
      try {
        const me = await authApi.me({ fresh: options.fresh });
        // A logout may have happened while the call was under way.
        if (!get().isAuthenticated) return null;
        applyUser(me.user, me.idleTimeoutSeconds);
        return me.user;
      } catch (error) {
        // A 401 has already been handled by the client's unauthorized handler.
        if (toApiError(error).status !== 401) console.warn('Could not refresh the user', error);
        return null;
      }
    },

    clearSession: () => {
      if (!get().isAuthenticated && !get().isLoading) return;
      // The server no longer accepts the token, so keeping it would only fail again.
      setAuthToken(null);
      void platform.session.clear();
      queryClient.clear();
      signedOut();
    },

    logout: async () => {
      try {
        await authApi.logout();
      } catch (error) {
        console.warn('Logout call failed; signing out locally anyway', error);
      }
      await platform.session.clear();
      setAuthToken(null);
      clearAllStorage();
      queryClient.clear();
      signedOut();
    },

    updateLastActivity: () => set({ lastActivity: Date.now() }),
  };
});
