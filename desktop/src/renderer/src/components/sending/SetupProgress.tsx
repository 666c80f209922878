import { Check } from 'lucide-react';
import { cn } from '../../lib/cn';
import type { SetupProgress as Progress } from '../../lib/sending/setup';

/** A determinate bar; `label` names it for screen readers. */
export function ProgressBar({
  percent,
  label,
  className,
  tone = 'emerald',
}: {
  percent: number;
  label: string;
  className?: string;
  tone?: 'emerald' | 'sky';
}) {
  const value = Math.max(0, Math.min(100, Math.round(percent)));
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={value}
      className={cn('h-2 w-full overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800', className)}
    >
      <div
        className={cn(
          'h-full rounded-full transition-[width] duration-500 motion-reduce:transition-none',
          tone === 'emerald' ? 'bg-emerald-500 dark:bg-emerald-400' : 'bg-sky-500 dark:bg-sky-400',
        )}
        style={{ width: `${value}%` }}
      />
    </div>
  );
}

/** The setup steps (pending, current, completed) and the share of them done (spec 002 §4). */
export function SetupProgress({ progress, label }: { progress: Progress; label: string }) {
  return (
    <section aria-label={label} className="flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900">
      <div className="flex items-center justify-between gap-3 text-sm">
        <span className="font-medium text-slate-800 dark:text-slate-100">{label}</span>
        <span className="tabular-nums text-slate-500 dark:text-slate-400" data-testid="setup-percent">
          {progress.percent}% complete
        </span>
      </div>
      <ProgressBar percent={progress.percent} label={label} />
      <ol className="grid grid-cols-2 gap-2 sm:grid-cols-4">
        {progress.steps.map((step, index) => (
          <li
            key={step.key}
            aria-current={step.state === 'current' ? 'step' : undefined}
            className="flex items-center gap-2 text-xs"
          >
            <span
              className={cn(
                'flex size-6 shrink-0 items-center justify-center rounded-full border text-[0.7rem] font-semibold',
                step.state === 'completed' && 'border-emerald-500 bg-emerald-500 text-white dark:border-emerald-400 dark:bg-emerald-400 dark:text-slate-950',
                step.state === 'current' && 'border-emerald-500 text-emerald-700 dark:border-emerald-400 dark:text-emerald-300',
                step.state === 'pending' && 'border-slate-300 text-slate-500 dark:border-slate-700 dark:text-slate-400',
              )}
            >
              {step.state === 'completed' ? <Check className="size-3.5" aria-hidden="true" /> : index + 1}
            </span>
            <span
              className={cn(
                'min-w-0 truncate',
                step.state === 'pending' ? 'text-slate-500 dark:text-slate-400' : 'font-medium text-slate-800 dark:text-slate-100',
              )}
            >
              {step.label}
              <span className="sr-only">
                {step.state === 'completed' ? ' (completed)' : step.state === 'current' ? ' (current step)' : ' (pending)'}
              </span>
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
