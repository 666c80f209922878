import { afterEach, describe, expect, it, vi } from 'vitest';
import { resolveInitialTheme } from './themeStore';

describe('resolveInitialTheme', () => {
  it('keeps a stored dark choice even when the OS prefers light', () => {
    expect(resolveInitialTheme('dark', false)).toBe('dark');
  });

  it('keeps a stored light choice even when the OS prefers dark', () => {
    expect(resolveInitialTheme('light', true)).toBe('light');
  });

  it('follows the OS preference when nothing is stored', () => {
    expect(resolveInitialTheme(null, true)).toBe('dark');
    expect(resolveInitialTheme(null, false)).toBe('light');
    expect(resolveInitialTheme(undefined, true)).toBe('dark');
  });

  it('ignores an unknown stored value and follows the OS preference', () => {
    expect(resolveInitialTheme('solarized', true)).toBe('dark');
    expect(resolveInitialTheme('', false)).toBe('light');
    expect(resolveInitialTheme('DARK', false)).toBe('light');
  });
});

describe('useThemeStore', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  // The store reads storage when its module loads, so each case loads a fresh copy after stubbing.
  function stubBrowser(stored: string | null) {
    vi.resetModules();
    const storage = new Map<string, string>(stored === null ? [] : [['theme', stored]]);
    const classes = new Set<string>();
    vi.stubGlobal('localStorage', {
      getItem: (key: string) => storage.get(key) ?? null,
      setItem: (key: string, value: string) => void storage.set(key, value),
    });
    vi.stubGlobal('document', {
      documentElement: {
        style: {},
        classList: {
          toggle: (name: string, force: boolean) => (force ? classes.add(name) : classes.delete(name), force),
        },
      },
    });
    return { storage, classes };
  }

  it('starts from the stored theme and puts the dark class on the root', async () => {
    const { classes } = stubBrowser('dark');
    const { useThemeStore } = await import('./themeStore');
    expect(useThemeStore.getState().theme).toBe('dark');
    expect(classes.has('dark')).toBe(true);
  });

  it('toggles, updates the root class and persists the choice under the theme key', async () => {
    const { storage, classes } = stubBrowser('light');
    const { useThemeStore } = await import('./themeStore');
    useThemeStore.getState().toggleTheme();
    expect(useThemeStore.getState().theme).toBe('dark');
    expect(classes.has('dark')).toBe(true);
    expect(storage.get('theme')).toBe('dark');
    useThemeStore.getState().setTheme('light');
    expect(classes.has('dark')).toBe(false);
    expect(storage.get('theme')).toBe('light');
  });
});
