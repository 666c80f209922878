import { create } from 'zustand';
import { STORAGE_KEYS } from '@shared/constants';

export type Theme = 'light' | 'dark';

const DARK_CLASS = 'dark';
const DARK_QUERY = '(prefers-color-scheme: dark)';

/**
 * The theme to start with: the one the user chose last time if it is a known value, otherwise
 * the operating system's preference. Pure so that it can be tested without a DOM.
 */
export function resolveInitialTheme(stored: string | null | undefined, prefersDark: boolean): Theme {
  if (stored === 'light' || stored === 'dark') return stored;
  return prefersDark ? 'dark' : 'light';
}

function readStoredTheme(): string | null {
  try {
    return globalThis.localStorage?.getItem(STORAGE_KEYS.theme) ?? null;
  } catch {
    // Storage can throw when it is disabled (privacy modes, sandboxed frames): fall back to the OS.
    return null;
  }
}

function systemPrefersDark(): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function'
    ? window.matchMedia(DARK_QUERY).matches
    : false;
}

function setRootClass(theme: Theme): void {
  if (typeof document === 'undefined') return;
  document.documentElement.classList.toggle(DARK_CLASS, theme === 'dark');
  // Lets native form controls and scrollbars follow the page.
  document.documentElement.style.colorScheme = theme;
}

/** Puts the theme on the page root (the `dark` class) and remembers it as the user's choice. */
export function applyTheme(theme: Theme): void {
  setRootClass(theme);
  try {
    globalThis.localStorage?.setItem(STORAGE_KEYS.theme, theme);
  } catch {
    // The theme still applies for this session when storage is unavailable.
  }
}

interface ThemeState {
  theme: Theme;
  toggleTheme: () => void;
  setTheme: (theme: Theme) => void;
}

const initialStored = readStoredTheme();
const initialTheme = resolveInitialTheme(initialStored, systemPrefersDark());
// The class goes on at start-up without persisting it, so that a user who never chose keeps
// following the operating system.
setRootClass(initialTheme);

export const useThemeStore = create<ThemeState>()((set, get) => ({
  theme: initialTheme,
  setTheme: (theme) => {
    applyTheme(theme);
    set({ theme });
  },
  toggleTheme: () => get().setTheme(get().theme === 'dark' ? 'light' : 'dark'),
}));

if (initialStored === null && typeof window !== 'undefined' && typeof window.matchMedia === 'function') {
  window.matchMedia(DARK_QUERY).addEventListener('change', (event) => {
    // Once the user has picked a theme, their choice wins over later OS changes.
    if (readStoredTheme() !== null) return;
    const theme: Theme = event.matches ? 'dark' : 'light';
    setRootClass(theme);
    useThemeStore.setState({ theme });
  });
}
