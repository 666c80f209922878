import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { creditKeys } from '../api/credits';
import { useSessionStore } from '../stores/sessionStore';
import { useUIStore } from '../stores/uiStore';

/**
 * The wallet balance, re-read from the server (cache-busting /me) when a screen showing it
 * mounts. A failed read keeps the balance already held (spec 000 §7).
 */
export function useCreditBalance() {
  const balance = useUIStore((state) => state.creditBalance);
  const query = useQuery({
    queryKey: creditKeys.balance,
    queryFn: async () => {
      const user = await useSessionStore.getState().refreshUser({ fresh: true });
      return user?.creditBalance ?? useUIStore.getState().creditBalance;
    },
    staleTime: 0,
  });
  return { balance, isRefreshing: query.isFetching, refresh: query.refetch };
}

/**
 * After the balance changed (a top-up): re-read it and drop the cached credit history. The
 * header badge and the dashboard read the balance the query's /me call stores, so the refetch
 * runs even when no screen showing the balance is mounted (`refetchType: 'all'`).
 */
export function invalidateCreditQueries(client: QueryClient): void {
  void client.invalidateQueries({ queryKey: creditKeys.balance, refetchType: 'all' });
  void client.invalidateQueries({ queryKey: creditKeys.history });
}

/** `invalidateCreditQueries` bound to the app's query client. */
export function useInvalidateCredits(): () => void {
  const client = useQueryClient();
  return useCallback(() => invalidateCreditQueries(client), [client]);
}
