import { messages } from '@shared/messages';
import { LogoMark } from '../brand/Logo';

/** Spec 000 §2.2: while the session loads, a centred spinning logo with placeholder bars. */
export function SessionLoading() {
  return (
    <div
      role="status"
      aria-live="polite"
      className="flex min-h-screen flex-col items-center justify-center gap-6 bg-slate-50 dark:bg-slate-950"
    >
      <LogoMark spinning className="size-14 rounded-2xl" />
      <div className="flex w-56 flex-col gap-2" aria-hidden="true">
        <div className="h-2.5 w-full animate-pulse rounded-full bg-slate-200 dark:bg-slate-800" />
        <div className="h-2.5 w-4/5 animate-pulse rounded-full bg-slate-200 dark:bg-slate-800" />
        <div className="h-2.5 w-3/5 animate-pulse rounded-full bg-slate-200 dark:bg-slate-800" />
      </div>
      <span className="sr-only">{messages.common.loading}</span>
    </div>
  );
}
