import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { BrowserRouter, HashRouter } from 'react-router-dom';
import { Toaster } from 'sonner';
import { NOTIFICATIONS } from '@shared/constants';
import { setUnauthorizedHandler } from './api/client';
import { publicConfigApi, publicConfigKey } from './api/publicConfig';
import { SessionManager } from './components/session/SessionManager';
import { FALLBACK_PUBLIC_CONFIG, PublicConfigContext } from './context/publicConfig';
import { platform } from './platform';
import { queryClient } from './queryClient';
import { AppRoutes } from './routes';
import { useSessionStore } from './stores/sessionStore';
import { useThemeStore } from './stores/themeStore';

/** The desktop app is served from app://sandesh/, where no server rewrites deep links to index.html. */
const Router = platform.kind === 'desktop' ? HashRouter : BrowserRouter;

function PublicConfigProvider({ children }: { children: ReactNode }) {
  const { data } = useQuery({
    queryKey: publicConfigKey,
    queryFn: publicConfigApi.get,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const config = data ?? FALLBACK_PUBLIC_CONFIG;

  useEffect(() => {
    document.title = config.brandName;
  }, [config.brandName]);

  return <PublicConfigContext.Provider value={config}>{children}</PublicConfigContext.Provider>;
}

function SessionRoot() {
  const isAuthenticated = useSessionStore((state) => state.isAuthenticated);

  useEffect(() => {
    // Spec 000 §4.1: a 401 from any call ends the session locally; the guards then show /login.
    setUnauthorizedHandler(() => useSessionStore.getState().clearSession());
    void useSessionStore.getState().initialize();
    return () => setUnauthorizedHandler(null);
  }, []);

  return isAuthenticated ? <SessionManager /> : null;
}

function ThemedToaster() {
  const theme = useThemeStore((state) => state.theme);
  return (
    <Toaster
      theme={theme}
      // Bottom right: the header's balance and avatar stay visible and clickable under a toast.
      position="bottom-right"
      richColors
      closeButton
      duration={NOTIFICATIONS.toastDurationMs}
      // Spec 000 §4.5: one toast at a time.
      visibleToasts={1}
    />
  );
}

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <PublicConfigProvider>
        <Router>
          <SessionRoot />
          <AppRoutes />
          <ThemedToaster />
        </Router>
      </PublicConfigProvider>
    </QueryClientProvider>
  );
}
