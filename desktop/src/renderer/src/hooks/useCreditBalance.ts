import { useQuery } from '@tanstack/react-query';
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
