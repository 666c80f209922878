import { AlertCircle, CheckCircle2, Info, TriangleAlert } from 'lucide-react';
import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn';
import { Button } from './button';

type Tone = 'error' | 'success' | 'info' | 'warning';

const tones: Record<Tone, { className: string; Icon: typeof Info }> = {
  error: {
    className: 'border-red-200 bg-red-50 text-red-800 dark:border-red-500/30 dark:bg-red-500/10 dark:text-red-300',
    Icon: AlertCircle,
  },
  success: {
    className:
      'border-emerald-200 bg-emerald-50 text-emerald-800 dark:border-emerald-500/30 dark:bg-emerald-500/10 dark:text-emerald-300',
    Icon: CheckCircle2,
  },
  info: {
    className: 'border-sky-200 bg-sky-50 text-sky-800 dark:border-sky-500/30 dark:bg-sky-500/10 dark:text-sky-300',
    Icon: Info,
  },
  warning: {
    className:
      'border-amber-200 bg-amber-50 text-amber-800 dark:border-amber-500/30 dark:bg-amber-500/10 dark:text-amber-300',
    Icon: TriangleAlert,
  },
};

/** An inline banner; errors are announced to screen readers at once. */
export function Alert({ tone = 'info', className, children, ...props }: ComponentProps<'div'> & { tone?: Tone }) {
  const { className: toneClass, Icon } = tones[tone];
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={cn('flex items-start gap-2 rounded-lg border px-3 py-2.5 text-sm', toneClass, className)}
      {...props}
    >
      <Icon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <div className="min-w-0 flex-1">{children}</div>
    </div>
  );
}

/** An error banner for a read that failed, with the button that reads again. */
export function RetryAlert({ message, onRetry, busy = false }: { message: string; onRetry: () => void; busy?: boolean }) {
  return (
    <Alert tone="error">
      <p>{message}</p>
      <Button variant="outline" size="sm" className="mt-2" onClick={onRetry} disabled={busy}>
        Try again
      </Button>
    </Alert>
  );
}
