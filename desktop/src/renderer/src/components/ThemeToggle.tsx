import { Moon, Sun } from 'lucide-react';
import { cn } from '../lib/cn';
import { messages } from '@shared/messages';
import { useThemeStore } from '../stores/themeStore';

interface ThemeToggleProps {
  className?: string;
}

/**
 * Switches between light and dark; the icon shows the theme a click leads to. Both icons are in
 * the markup and the page's `dark` class picks one, so the markup is the same in either theme:
 * the prerendered landing page (built in light) hydrates without a mismatch in dark mode.
 */
export function ThemeToggle({ className }: ThemeToggleProps): React.JSX.Element {
  const toggleTheme = useThemeStore((state) => state.toggleTheme);

  return (
    <button
      type="button"
      onClick={toggleTheme}
      // The prerendered landing page's boot script answers this button until React hydrates.
      data-theme-toggle=""
      aria-label={messages.publicSite.toggleTheme}
      title={messages.publicSite.toggleTheme}
      className={cn(
        'inline-flex h-9 w-9 items-center justify-center rounded-lg border border-slate-200 text-slate-600',
        'transition-colors hover:bg-slate-100 hover:text-slate-900',
        'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-500 focus-visible:ring-offset-2',
        'dark:border-slate-700 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white dark:focus-visible:ring-offset-slate-900',
        className,
      )}
    >
      <Sun className="hidden h-4 w-4 dark:block" aria-hidden="true" />
      <Moon className="h-4 w-4 dark:hidden" aria-hidden="true" />
    </button>
  );
}
