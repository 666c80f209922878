import {
  ArrowRight,
  BarChart3,
  CalendarClock,
  FileSpreadsheet,
  FileText,
  Plus,
  RefreshCw,
  Send,
  Wallet,
  type LucideIcon,
} from 'lucide-react';
import { Link } from 'react-router-dom';
import { LAYOUT } from '@shared/constants';
import { messages } from '@shared/messages';
import { formatRupees } from '@shared/money';
import type { TAccountOverview } from '@shared/schemas/reports';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { useCreditBalance } from '../../hooks/useCreditBalance';
import { useAccountOverview } from '../../hooks/useReports';
import { useNow } from '../../hooks/useNow';
import { cn } from '../../lib/cn';
import { greeting } from '../../lib/greeting';
import { formatCount, formatRate } from '../../lib/reports';
import { useSessionStore } from '../../stores/sessionStore';
import { OnboardingChecklist } from '../../components/onboarding/OnboardingChecklist';
import { ConnectWhatsAppCard } from '../../components/whatsapp/ConnectWhatsAppCard';

interface QuickAction {
  to: string;
  title: string;
  description: string;
  icon: LucideIcon;
  tint: string;
}

const quickActions: readonly QuickAction[] = [
  {
    to: '/user/whatsapp-bulk',
    title: 'Send Bulk Messages',
    description: 'Send an approved template to many numbers at once.',
    icon: Send,
    tint: 'bg-emerald-100 text-emerald-700 dark:bg-emerald-500/15 dark:text-emerald-300',
  },
  {
    to: '/user/templates',
    title: 'Create Template',
    description: 'Build a message template and submit it for approval.',
    icon: FileText,
    tint: 'bg-sky-100 text-sky-700 dark:bg-sky-500/15 dark:text-sky-300',
  },
  {
    to: '/user/manage-reports',
    title: 'View Reports',
    description: 'Follow delivery and read status of your campaigns.',
    icon: BarChart3,
    tint: 'bg-violet-100 text-violet-700 dark:bg-violet-500/15 dark:text-violet-300',
  },
  {
    to: '/user/customize-message',
    title: 'Customize Messages',
    description: 'Personalise each message from a spreadsheet.',
    icon: FileSpreadsheet,
    tint: 'bg-amber-100 text-amber-700 dark:bg-amber-500/15 dark:text-amber-300',
  },
];

const dateFormat = new Intl.DateTimeFormat('en-IN', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
const timeFormat = new Intl.DateTimeFormat('en-IN', { hour: 'numeric', minute: '2-digit' });

/** One figure of the Account Overview; a dash while it loads or when it could not be had. */
function OverviewFigure({ label, value, hint, caption }: { label: string; value: string | null; hint?: string; caption?: string }) {
  return (
    <div className="rounded-lg bg-slate-50 p-4 dark:bg-slate-800/50">
      <dt className="text-sm text-slate-500 dark:text-slate-400">
        {label}
        {caption ? <span className="mt-0.5 block text-xs">{caption}</span> : null}
      </dt>
      <dd className="mt-1 text-xl font-semibold tabular-nums">
        {value ?? <span className="inline-block h-6 w-16 animate-pulse rounded bg-slate-200 align-middle dark:bg-slate-700" />}
      </dd>
      {hint ? <dd className="mt-0.5 text-xs text-slate-500 dark:text-slate-400">{hint}</dd> : null}
    </div>
  );
}

/** /user/dashboard (spec 002 "User dashboard"). */
export function UserDashboardPage() {
  const user = useSessionStore((state) => state.user);
  const now = useNow(LAYOUT.dashboardClockRefreshMs);
  const { balance, isRefreshing, refresh } = useCreditBalance();
  const overview = useAccountOverview();
  // Loading: null (a placeholder); failed: a dash, with the note under the figures.
  const figure = (show: (data: TAccountOverview) => string): string | null =>
    overview.data ? show(overview.data) : overview.isError ? '—' : null;

  return (
    <div className="flex flex-col gap-6">
      <section className="flex flex-col gap-4 rounded-2xl bg-gradient-to-br from-emerald-600 to-teal-700 p-6 text-white shadow-sm sm:flex-row sm:items-center sm:justify-between dark:from-emerald-700 dark:to-teal-900">
        <div>
          <h2 className="text-2xl font-bold tracking-tight">{greeting(now.getHours(), user?.name)}</h2>
          <p className="mt-1 flex items-center gap-2 text-sm text-emerald-50">
            <CalendarClock className="size-4" aria-hidden="true" />
            <span>
              {dateFormat.format(now)} · <time dateTime={now.toISOString()}>{timeFormat.format(now)}</time>
            </span>
          </p>
        </div>
        <Button asChild className="bg-white text-emerald-800 hover:bg-emerald-50 dark:bg-white dark:text-emerald-800 dark:hover:bg-emerald-50">
          <Link to="/user/whatsapp-bulk">
            <Plus aria-hidden="true" />
            New Campaign
          </Link>
        </Button>
      </section>

      <OnboardingChecklist />

      <ConnectWhatsAppCard />

      <div className="grid gap-6 lg:grid-cols-3">
        <Card className="lg:col-span-1">
          <CardHeader className="flex-row items-start justify-between">
            <div>
              <CardDescription>Available Credits</CardDescription>
              <p className="mt-2 text-3xl font-bold tabular-nums" data-testid="available-credits">
                {formatRupees(balance)}
              </p>
            </div>
            <span className="flex size-10 items-center justify-center rounded-lg bg-emerald-100 text-emerald-700 dark:bg-emerald-500/15 dark:text-emerald-300">
              <Wallet className="size-5" aria-hidden="true" />
            </span>
          </CardHeader>
          <CardContent className="flex items-center gap-2">
            <Button asChild>
              <Link to="/user/wallet">Top Up</Link>
            </Button>
            <Button variant="ghost" size="sm" onClick={() => void refresh()} disabled={isRefreshing}>
              <RefreshCw className={cn(isRefreshing && 'animate-spin')} aria-hidden="true" />
              {messages.wallet.refreshBalance}
            </Button>
          </CardContent>
        </Card>

        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle>Quick Actions</CardTitle>
            <CardDescription>Jump straight into your most common tasks.</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-3 sm:grid-cols-2">
            {quickActions.map(({ to, title, description, icon: Icon, tint }) => (
              <Link
                key={to}
                to={to}
                className="group flex items-start gap-3 rounded-lg border border-slate-200 p-4 transition-colors hover:border-emerald-300 hover:bg-emerald-50/50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-500 dark:border-slate-800 dark:hover:border-emerald-500/40 dark:hover:bg-emerald-500/5"
              >
                <span className={cn('flex size-10 shrink-0 items-center justify-center rounded-lg', tint)}>
                  <Icon className="size-5" aria-hidden="true" />
                </span>
                <span className="min-w-0">
                  <span className="flex items-center gap-1 font-semibold text-slate-900 dark:text-white">
                    {title}
                    <ArrowRight
                      className="size-4 opacity-0 transition-opacity group-hover:opacity-100"
                      aria-hidden="true"
                    />
                  </span>
                  <span className="mt-0.5 block text-sm text-slate-500 dark:text-slate-400">{description}</span>
                </span>
              </Link>
            ))}
          </CardContent>
        </Card>
      </div>

      <Card>
        <CardHeader className="sm:flex-row sm:items-center sm:justify-between">
          <div>
            <CardTitle>Account Overview</CardTitle>
            <CardDescription>Your wallet and messaging at a glance.</CardDescription>
          </div>
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" asChild>
              <Link to="/user/manage-reports">View Details</Link>
            </Button>
            <Button asChild>
              <Link to="/user/wallet">Top Up Wallet</Link>
            </Button>
          </div>
        </CardHeader>
        <CardContent className="flex flex-col gap-3">
          <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-busy={overview.isPending} data-testid="account-overview">
            <OverviewFigure label="Credit Balance" value={formatRupees(balance)} />
            <OverviewFigure
              label="Messages This Month"
              caption={messages.reportsScreen.messagesThisMonthCaption}
              value={figure((data) => formatCount(data.messagesThisMonth))}
            />
            <OverviewFigure label="Delivery Rate" value={figure((data) => formatRate(data.deliveryRate))} />
            <OverviewFigure label="Read Rate" value={figure((data) => formatRate(data.readRate))} />
            <OverviewFigure
              label="Spend This Month"
              value={figure((data) => formatRupees(data.spendThisMonth))}
              hint={overview.data && overview.data.refundsThisMonth > 0 ? `${formatRupees(overview.data.refundsThisMonth)} refunded for failed messages` : undefined}
            />
            <OverviewFigure label="Active Campaigns" value={figure((data) => formatCount(data.activeCampaigns))} />
          </dl>
          {overview.isError ? <p className="text-sm text-slate-500 dark:text-slate-400">{messages.reportsScreen.overviewUnavailable}</p> : null}
        </CardContent>
      </Card>
    </div>
  );
}
