import { WifiOff } from 'lucide-react';
import { useEffect, useState } from 'react';
import { fillMessage, messages } from '@shared/messages';
import { connectionMonitor, useOnline } from '../../hooks/useConnection';
import { secondsUntil } from '../../lib/connection';
import { Button } from '../ui/button';

const text = messages.connection;

/** Re-renders every second while a retry is counted down. */
function useSecondsUntil(retryAt: number | null): number | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (retryAt === null) return undefined;
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [retryAt]);
  return retryAt === null ? null : secondsUntil(retryAt, now);
}

/**
 * Shown under the header while the network is gone or the server does not answer; it
 * retries by itself with a growing delay and hides once the server answers again.
 */
export function ConnectionBanner() {
  const status = useOnline();
  const seconds = useSecondsUntil(status.kind === 'unreachable' ? status.retryAt : null);
  if (status.kind === 'online') return null;

  const message =
    status.kind === 'offline' ? text.offline : seconds === null ? text.retrying : fillMessage(text.unreachable, { seconds });
  return (
    <div
      role="status"
      aria-live="polite"
      data-testid="connection-banner"
      className="flex items-center gap-3 border-b border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-900 sm:px-6 lg:px-8 dark:border-amber-500/30 dark:bg-amber-950 dark:text-amber-200"
    >
      <WifiOff className="size-4 shrink-0" aria-hidden="true" />
      <p className="min-w-0 flex-1">{message}</p>
      {status.kind === 'unreachable' ? (
        <Button size="sm" variant="outline" disabled={seconds === null} onClick={() => void connectionMonitor.checkNow()}>
          {text.retryNow}
        </Button>
      ) : null}
    </div>
  );
}
