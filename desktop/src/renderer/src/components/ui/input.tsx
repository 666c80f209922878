import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn';

export type InputProps = ComponentProps<'input'> & {
  /** Marks the field as wrong (red border, aria-invalid). */
  invalid?: boolean;
};

export function Input({ className, invalid, type = 'text', ...props }: InputProps) {
  return (
    <input
      type={type}
      aria-invalid={invalid || undefined}
      className={cn(
        'flex h-10 w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-xs',
        'placeholder:text-slate-400 disabled:cursor-not-allowed disabled:opacity-60 read-only:bg-slate-50',
        'focus-visible:border-emerald-500 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-500/30',
        'dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:placeholder:text-slate-500 dark:read-only:bg-slate-900/60',
        invalid && 'border-red-500 focus-visible:border-red-500 focus-visible:ring-red-500/30 dark:border-red-500',
        className,
      )}
      {...props}
    />
  );
}

/** The message under a field; its id is what the input's aria-describedby points at. */
export function FieldError({ id, message }: { id: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={id} role="alert" className="text-sm text-red-600 dark:text-red-400">
      {message}
    </p>
  );
}
