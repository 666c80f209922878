import { BarChart3, Info, Layers, Sparkles, UserCog, Users, UsersRound, IndianRupee } from 'lucide-react';
import { messages } from '@shared/messages';
import { formatIndianNumber } from '@shared/money';
import type { TPricingStats } from '@shared/types';
import { errorText } from '../../api/client';
import { ErrorCard } from '../../components/admin/ErrorCard';
import { GlobalDefaultsCard } from '../../components/admin/GlobalDefaultsCard';
import { StatGrid, statTints, type Stat } from '../../components/admin/StatCards';
import { usePricingStats } from '../../hooks/usePricing';
import { Alert } from '../../components/ui/alert';
import { Badge } from '../../components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';

const p = messages.pricing;

/** docs/decisions/2026-11-24-routes.md: real figures from /api/admin/pricing/stats instead of the spec's placeholders. */
function pricingStatCards(stats: TPricingStats | undefined): Stat[] {
  const count = (value: number | undefined) => (stats ? formatIndianNumber(value ?? 0) : '—');
  return [
    { label: 'Total Users', value: count(stats?.totalUsers), icon: Users, tint: statTints.sky },
    { label: 'Custom Pricing', value: count(stats?.customPricingUsers), icon: UserCog, tint: statTints.violet },
    { label: 'Default Pricing', value: count(stats?.defaultPricingUsers), icon: UsersRound, tint: statTints.amber },
    {
      label: 'Avg. Marketing',
      value: stats ? `₹${stats.averageMarketing}` : '—',
      icon: IndianRupee,
      tint: statTints.emerald,
      hint: stats ? `Utility ₹${stats.averageUtility} · Authentication ₹${stats.averageAuthentication}` : undefined,
    },
  ];
}

const comingSoon = [
  { icon: Layers, title: 'Bulk pricing updates', text: 'Set custom prices for many users at once.' },
  { icon: BarChart3, title: 'Pricing analytics', text: 'See how prices and spend change over time.' },
  { icon: Sparkles, title: 'Usage reports', text: 'Messages and spend per user and category.' },
];

/** /admin/pricing (spec 001 "Pricing Management"). */
export function AdminPricingPage() {
  const stats = usePricingStats();

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h2 className="text-2xl font-bold tracking-tight">Pricing Management</h2>
          <p className="text-sm text-slate-500 dark:text-slate-400">Per-message prices for every user of the platform.</p>
        </div>
        <Badge variant="outline" className="self-start px-3 py-1 text-sm sm:self-auto">
          <IndianRupee className="size-3.5" aria-hidden="true" />
          Currency: INR
        </Badge>
      </div>

      {stats.error ? (
        <ErrorCard
          title={p.loadFailed}
          detail={errorText(stats.error, p.loadFailed)}
          onRetry={() => void stats.refetch()}
          isRetrying={stats.isFetching}
        />
      ) : (
        <StatGrid stats={pricingStatCards(stats.data)} isLoading={stats.isPending} />
      )}

      <Alert tone="info">
        <p className="font-medium">How pricing works</p>
        <p>
          The global default prices apply to all users unless a user has custom pricing. Custom prices are set per user
          in User Settings, on the Pricing tab.
        </p>
      </Alert>

      <GlobalDefaultsCard />

      <Card className="border-dashed">
        <CardHeader>
          <div className="flex items-center gap-2">
            <CardTitle>More pricing tools</CardTitle>
            <Badge variant="info">Coming Soon</Badge>
          </div>
          <CardDescription>On the way to this page.</CardDescription>
        </CardHeader>
        <CardContent>
          <ul className="grid gap-4 sm:grid-cols-3">
            {comingSoon.map(({ icon: Icon, title, text }) => (
              <li key={title} className="flex gap-3">
                <Icon className="mt-0.5 size-5 shrink-0 text-slate-400 dark:text-slate-500" aria-hidden="true" />
                <div>
                  <p className="text-sm font-medium">{title}</p>
                  <p className="text-sm text-slate-500 dark:text-slate-400">{text}</p>
                </div>
              </li>
            ))}
          </ul>
        </CardContent>
      </Card>

      <p className="flex items-center gap-1.5 text-xs text-slate-500 dark:text-slate-400">
        <Info className="size-3.5" aria-hidden="true" />
        Averages are over regular users' effective marketing, utility and authentication prices.
      </p>
    </div>
  );
}
