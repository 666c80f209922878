import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { SENDING } from '@shared/constants';
import type { TCampaign } from '@shared/schemas/sending';
import { isCampaignLive } from '../lib/reports';
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

function isCampaign(value: unknown): value is TCampaign {
  return typeof value === 'object' && value !== null && 'status' in value && 'counts' in value && 'billable' in value;
}

/** Whether a campaign this app has read (a list, a send dialog's campaign) is still changing the wallet. */
function campaignRunning(client: QueryClient): boolean {
  return client
    .getQueryCache()
    .findAll()
    .some((query) => {
      const data = query.state.data;
      if (isCampaign(data)) return isCampaignLive(data);
      const list = typeof data === 'object' && data !== null && 'campaigns' in data ? data.campaigns : null;
      return Array.isArray(list) && list.some((entry) => isCampaign(entry) && isCampaignLive(entry));
    });
}

/**
 * The header's balance, kept live: the query always exists while the header shows, so
 * every invalidation after a send, refund, top-up or cancel re-reads it; it is also re-read when
 * the window regains focus and every few seconds while a campaign runs (refunds of failed
 * messages land then). The server pushes nothing yet, so this is the freshest the header can be.
 */
export function useLiveCreditBalance(): number {
  const client = useQueryClient();
  useQuery({
    queryKey: creditKeys.balance,
    queryFn: async () => {
      const user = await useSessionStore.getState().refreshUser({ fresh: true });
      return user?.creditBalance ?? useUIStore.getState().creditBalance;
    },
    staleTime: 0,
    refetchOnWindowFocus: true,
    refetchInterval: () => (campaignRunning(client) ? SENDING.balanceRefreshWhileSendingMs : false),
  });
  return useUIStore((state) => state.creditBalance);
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
