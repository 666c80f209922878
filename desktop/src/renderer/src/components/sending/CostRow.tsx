import type { ReactNode } from 'react';

/** One line of a cost summary (`<dl>`): the label left, the figure right; `strong` for the total. */
export function CostRow({ label, children, strong = false }: { label: string; children: ReactNode; strong?: boolean }) {
  return (
    <div className="flex items-baseline justify-between gap-4 py-1.5">
      <dt className="text-sm text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className={strong ? 'text-base font-semibold tabular-nums' : 'text-sm tabular-nums'}>{children}</dd>
    </div>
  );
}
