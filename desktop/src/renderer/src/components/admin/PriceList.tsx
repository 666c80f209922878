import { PRICE_CATEGORIES, type TPriceSet } from '@shared/pricing';
import { cn } from '../../lib/cn';
import { PRICE_LABELS } from '../../lib/pricingForm';

/** The prices of every category, read-only: side by side, or one per row where the space is narrow. */
export function PriceList({
  prices,
  layout = 'row',
  className,
}: {
  prices: TPriceSet;
  layout?: 'row' | 'column';
  className?: string;
}) {
  if (layout === 'column') {
    return (
      <dl className={cn('divide-y divide-slate-100 text-sm dark:divide-slate-800', className)}>
        {PRICE_CATEGORIES.map((category) => (
          <div key={category} className="flex items-center justify-between gap-4 py-2">
            <dt className="text-slate-500 dark:text-slate-400">{PRICE_LABELS[category]}</dt>
            <dd className="font-semibold tabular-nums">₹{prices[category]}</dd>
          </div>
        ))}
      </dl>
    );
  }
  return (
    <dl className={cn('grid grid-cols-2 gap-3 sm:grid-cols-4', className)}>
      {PRICE_CATEGORIES.map((category) => (
        <div
          key={category}
          className="min-w-0 rounded-lg border border-slate-200 bg-slate-50 px-3 py-2 dark:border-slate-800 dark:bg-slate-800/40"
        >
          <dt className="truncate text-xs text-slate-500 dark:text-slate-400">{PRICE_LABELS[category]}</dt>
          <dd className="font-semibold tabular-nums">₹{prices[category]}</dd>
        </div>
      ))}
    </dl>
  );
}
