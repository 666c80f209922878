import { create } from 'zustand';
import { LAYOUT } from '@shared/constants';

interface UIState {
  sidebarOpen: boolean;
  /** Named loading flags, e.g. `gateway` for the full-screen "Connecting..." overlay. */
  loading: Record<string, boolean>;
  creditBalance: number;
  setSidebarOpen: (open: boolean) => void;
  toggleSidebar: () => void;
  setLoading: (key: string, isLoading: boolean) => void;
  setCreditBalance: (balance: number) => void;
}

function initialSidebarOpen(): boolean {
  return typeof window !== 'undefined' && window.innerWidth >= LAYOUT.sidebarOpenMinWidth;
}

export const useUIStore = create<UIState>()((set) => ({
  sidebarOpen: initialSidebarOpen(),
  loading: {},
  creditBalance: 0,
  setSidebarOpen: (open) => set({ sidebarOpen: open }),
  toggleSidebar: () => set((state) => ({ sidebarOpen: !state.sidebarOpen })),
  setLoading: (key, isLoading) =>
    set((state) => {
      if (Boolean(state.loading[key]) === isLoading) return state;
      const loading = { ...state.loading };
      if (isLoading) loading[key] = true;
      else delete loading[key];
      return { loading };
    }),
  setCreditBalance: (balance) => set({ creditBalance: Number.isFinite(balance) ? balance : 0 }),
}));

/** Whether the flag `key` is on. */
export function useIsLoading(key: string): boolean {
  return useUIStore((state) => Boolean(state.loading[key]));
}
