import { Loader2 } from 'lucide-react';
import { cn } from '../../lib/cn';

/** A spinning ring; give it a `label` when nothing else on screen says what is loading. */
export function Spinner({ className, label }: { className?: string; label?: string }) {
  return (
    <span role={label ? 'status' : undefined} className="inline-flex items-center gap-2">
      <Loader2 aria-hidden="true" className={cn('size-4 animate-spin text-emerald-600 dark:text-emerald-400', className)} />
      {label ? <span className="sr-only">{label}</span> : null}
    </span>
  );
}
