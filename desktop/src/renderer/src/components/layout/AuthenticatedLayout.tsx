import { Suspense, useEffect, useSyncExternalStore, type ReactNode } from 'react';
import { Outlet } from 'react-router-dom';
import { LAYOUT } from '@shared/constants';
import { fillMessage, messages } from '@shared/messages';
import { usePublicConfig } from '../../context/publicConfig';
import { useCampaignAlerts } from '../../hooks/useCampaignAlerts';
import { useSessionStore } from '../../stores/sessionStore';
import { useIsLoading, useUIStore } from '../../stores/uiStore';
import { NotificationBanner } from '../notifications/NotificationBanner';
import { Spinner } from '../ui/spinner';
import { ConnectionBanner } from './ConnectionBanner';
import { Footer } from './Footer';
import { Header } from './Header';
import { MobileDrawer, Sidebar } from './Sidebar';

/** Key of the uiStore loading flag that shows the full-screen gateway overlay. */
export const GATEWAY_LOADING_KEY = 'gateway';

function FullScreenSpinner({ text }: { text: string }) {
  return (
    <div role="status" className="fixed inset-0 z-[60] flex flex-col items-center justify-center gap-3 bg-white/80 backdrop-blur-sm dark:bg-slate-950/80">
      <Spinner className="size-8" />
      <p className="text-sm font-medium text-slate-700 dark:text-slate-200">{text}</p>
    </div>
  );
}

const WIDE_QUERY = `(min-width: ${LAYOUT.sidebarOpenMinWidth}px)`;

function subscribeToWidth(onChange: () => void): () => void {
  const query = window.matchMedia(WIDE_QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/**
 * Wide windows get the sidebar, narrow ones the drawer; crossing the line opens or closes it as
 * the default for that width would (a drawer popping open on shrink would hide the page).
 */
function useIsWide(): boolean {
  const isWide = useSyncExternalStore(subscribeToWidth, () => window.matchMedia(WIDE_QUERY).matches);
  const setSidebarOpen = useUIStore((state) => state.setSidebarOpen);
  useEffect(() => {
    setSidebarOpen(isWide);
  }, [isWide, setSidebarOpen]);
  return isWide;
}

function PageLoading() {
  return (
    <div role="status" className="flex justify-center py-16">
      <Spinner className="size-6" />
      <span className="sr-only">{messages.common.loading}</span>
    </div>
  );
}

/**
 * The frame of every signed-in screen (spec 000 §2.6): sidebar or drawer, sticky header,
 * notification area and footer.
 */
export function AuthenticatedLayout({ children }: { children?: ReactNode }) {
  const { brandName } = usePublicConfig();
  const user = useSessionStore((state) => state.user);
  const isLoading = useSessionStore((state) => state.isLoading);
  const sidebarOpen = useUIStore((state) => state.sidebarOpen);
  const setSidebarOpen = useUIStore((state) => state.setSidebarOpen);
  const gatewayLoading = useIsLoading(GATEWAY_LOADING_KEY);
  const isWide = useIsWide();
  useCampaignAlerts(user?.id ?? null);

  if (isLoading || !user) return <FullScreenSpinner text={fillMessage(messages.app.loadingApp, { brand: brandName })} />;

  return (
    <div className="flex min-h-screen bg-slate-50 text-slate-900 dark:bg-slate-950 dark:text-slate-100">
      <Sidebar user={user} open={isWide && sidebarOpen} />
      <MobileDrawer user={user} open={!isWide && sidebarOpen} onOpenChange={setSidebarOpen} />
      <div className="flex min-w-0 flex-1 flex-col">
        <Header user={user} />
        <ConnectionBanner />
        <NotificationBanner />
        <main className="mx-auto w-full max-w-7xl flex-1 px-4 py-6 sm:px-6 lg:px-8">
          {/* An area's pages load on demand (routes.tsx): the frame stays while they arrive. */}
          <Suspense fallback={<PageLoading />}>{children ?? <Outlet />}</Suspense>
        </main>
        <Footer />
      </div>
      {gatewayLoading ? <FullScreenSpinner text={messages.common.connectingGateway} /> : null}
    </div>
  );
}
