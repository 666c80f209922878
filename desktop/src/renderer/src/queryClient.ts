import { QueryClient } from '@tanstack/react-query';

/** One retry and no refetch on focus (spec 000 §9); the session check has its own schedule. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: 1, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});
