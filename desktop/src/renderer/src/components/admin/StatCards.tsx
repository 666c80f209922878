import { CalendarDays, IndianRupee, MessageSquare, Settings2, UserRound, Users, Wallet, type LucideIcon } from 'lucide-react';
import { formatIndianNumber, formatRupees } from '@shared/money';
import type { TAdminStats } from '@shared/types';
import { cn } from '../../lib/cn';
import { Card, CardContent } from '../ui/card';

export interface Stat {
  label: string;
  value: string;
  icon: LucideIcon;
  tint: string;
  /** A line under the figure. */
  hint?: string;
  /** What the figure counts, said under its label. */
  caption?: string;
}

/** Tints of the stat icons, light and dark. */
export const statTints = {
  sky: 'bg-sky-100 text-sky-700 dark:bg-sky-500/15 dark:text-sky-300',
  violet: 'bg-violet-100 text-violet-700 dark:bg-violet-500/15 dark:text-violet-300',
  amber: 'bg-amber-100 text-amber-700 dark:bg-amber-500/15 dark:text-amber-300',
  emerald: 'bg-emerald-100 text-emerald-700 dark:bg-emerald-500/15 dark:text-emerald-300',
} as const;

function statsToCards(stats: TAdminStats | undefined): Stat[] {
  const count = (value: number | undefined) => (stats ? formatIndianNumber(value ?? 0) : '—');
  return [
    { label: 'Total Users', value: count(stats?.totalUsers), icon: Users, tint: statTints.sky },
    { label: 'Regular Users', value: count(stats?.regularUsers), icon: UserRound, tint: statTints.violet },
    { label: 'Configured Users', value: count(stats?.configuredUsers), icon: Settings2, tint: statTints.amber },
    {
      label: 'Total Credits',
      value: stats ? formatRupees(stats.totalCredits) : '—',
      icon: IndianRupee,
      tint: statTints.emerald,
    },
  ];
}

/** A row of figure cards (admin dashboard, Pricing Management). */
export function StatGrid({ stats, isLoading, className }: { stats: readonly Stat[]; isLoading: boolean; className?: string }) {
  return (
    <div className={cn('grid gap-4 sm:grid-cols-2 xl:grid-cols-4', className)} aria-busy={isLoading}>
      {stats.map(({ label, value, icon: Icon, tint, hint, caption }) => (
        <Card key={label}>
          <CardContent className="flex flex-col gap-3 p-5">
            <div className="flex items-center justify-between gap-3">
              <div>
                <p className="text-sm text-slate-500 dark:text-slate-400">{label}</p>
                {caption ? <p className="mt-0.5 text-xs text-slate-500 dark:text-slate-400">{caption}</p> : null}
              </div>
              <span className={cn('flex size-9 shrink-0 items-center justify-center rounded-lg', tint)}>
                <Icon className="size-4" aria-hidden="true" />
              </span>
            </div>
            {isLoading ? (
              <div className="h-8 w-24 animate-pulse rounded bg-slate-200 dark:bg-slate-800" />
            ) : (
              <div>
                <p className="text-2xl font-bold tabular-nums break-words">{value}</p>
                {hint ? <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">{hint}</p> : null}
              </div>
            )}
          </CardContent>
        </Card>
      ))}
    </div>
  );
}

export function StatCards({ stats, isLoading }: { stats: TAdminStats | undefined; isLoading: boolean }) {
  return <StatGrid stats={statsToCards(stats)} isLoading={isLoading} />;
}

function usageToCards(stats: TAdminStats | undefined): Stat[] {
  const count = (value: number | undefined) => (stats ? formatIndianNumber(value ?? 0) : '—');
  return [
    { label: 'Messages Today', value: count(stats?.messagesToday), icon: MessageSquare, tint: statTints.sky },
    { label: 'Messages This Month', value: count(stats?.messagesThisMonth), icon: CalendarDays, tint: statTints.violet },
    {
      label: 'Spend This Month',
      value: stats ? formatRupees(stats.spendThisMonth ?? 0) : '—',
      icon: Wallet,
      tint: statTints.emerald,
      hint: 'Charges less refunds, all users',
    },
  ];
}

/** Platform usage under the four spec cards: billable messages and spend, India's calendar. */
export function UsageStatCards({ stats, isLoading }: { stats: TAdminStats | undefined; isLoading: boolean }) {
  return (
    <section aria-label="Usage" className="flex flex-col gap-3">
      <h3 className="text-sm font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">Usage</h3>
      <StatGrid stats={usageToCards(stats)} isLoading={isLoading} />
    </section>
  );
}
