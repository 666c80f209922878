import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn';

export type TextareaProps = ComponentProps<'textarea'> & {
  /** Marks the field as wrong (red border, aria-invalid). */
  invalid?: boolean;
};

/** A multi-line input with the same looks as Input. */
export function Textarea({ className, invalid, ...props }: TextareaProps) {
  return (
    <textarea
      aria-invalid={invalid || undefined}
      className={cn(
        'flex min-h-28 w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-xs',
        'placeholder:text-slate-400 disabled:cursor-not-allowed disabled:opacity-60',
        'focus-visible:border-emerald-500 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-500/30',
        'dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:placeholder:text-slate-500',
        invalid && 'border-red-500 focus-visible:border-red-500 focus-visible:ring-red-500/30 dark:border-red-500',
        className,
      )}
      {...props}
    />
  );
}
