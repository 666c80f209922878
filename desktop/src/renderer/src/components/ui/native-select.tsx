import { ChevronDown } from 'lucide-react';
import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn';

export type NativeSelectProps = ComponentProps<'select'> & {
  /** Marks the field as wrong (red border, aria-invalid). */
  invalid?: boolean;
};

/**
 * A styled native <select>: the platform's own keyboard handling and screen-reader support,
 * and a real form control that `getByLabel` finds, for short fixed option lists.
 */
export function NativeSelect({ className, invalid, children, ...props }: NativeSelectProps) {
  return (
    <div className="relative">
      <select
        aria-invalid={invalid || undefined}
        className={cn(
          'h-10 w-full appearance-none rounded-lg border border-slate-300 bg-white py-2 pr-9 pl-3 text-sm text-slate-900 shadow-xs',
          'focus-visible:border-emerald-500 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-500/30',
          'disabled:cursor-not-allowed disabled:opacity-60',
          'dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:[color-scheme:dark]',
          invalid && 'border-red-500 focus-visible:border-red-500 focus-visible:ring-red-500/30 dark:border-red-500',
          className,
        )}
        {...props}
      >
        {children}
      </select>
      <ChevronDown
        className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-slate-500 dark:text-slate-400"
        aria-hidden="true"
      />
    </div>
  );
}
