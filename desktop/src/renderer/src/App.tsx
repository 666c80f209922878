import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { Suspense, useEffect, type ReactNode } from 'react';
import { BrowserRouter, HashRouter, StaticRouter } from 'react-router-dom';
import { Toaster } from 'sonner';
import { NOTIFICATIONS } from '@shared/constants';
import { setUnauthorizedHandler } from './api/client';
import { publicConfigApi, publicConfigKey } from './api/publicConfig';
import { FALLBACK_PUBLIC_CONFIG, PublicConfigContext } from './context/publicConfig';
import { platform } from './platform';
import { queryClient } from './queryClient';
import { AppRoutes, SessionManager } from './routes';
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

  // Loaded with the signed-in area; a visitor never downloads it. Nothing to show while it loads.
  return isAuthenticated ? (
    <Suspense fallback={null}>
      <SessionManager />
    </Suspense>
  ) : null;
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

interface AppProps {
  /** Only when prerendering at build (prerender.tsx): the path to render, without a browser. */
  serverLocation?: string;
}

export function App({ serverLocation }: AppProps = {}) {
  const routes = (
    <>
      <SessionRoot />
      <AppRoutes />
      <ThemedToaster />
    </>
  );
  return (
    <QueryClientProvider client={queryClient}>
      <PublicConfigProvider>
        {serverLocation === undefined ? <Router>{routes}</Router> : <StaticRouter location={serverLocation}>{routes}</StaticRouter>}
      </PublicConfigProvider>
    </QueryClientProvider>
  );
}
