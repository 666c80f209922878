import { CalendarClock, CreditCard, MessageCircle } from 'lucide-react';
import type { ReactNode } from 'react';
import { LOGS } from '@shared/constants';
import { messages } from '@shared/messages';
import { useQuery } from '@tanstack/react-query';
import { adminApi, adminKeys, type TPlatformSettings } from '../../api/admin';
import { errorText } from '../../api/client';
import { ErrorCard } from '../../components/admin/ErrorCard';
import { GlobalDefaultsCard } from '../../components/admin/GlobalDefaultsCard';
import { Badge } from '../../components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { formatPhoneForDisplay } from '../../lib/format';
import { describeCleanupSchedule, describePaymentsStatus } from '../../lib/platformSettings';

function SettingCard({
  icon: Icon,
  title,
  description,
  children,
}: {
  icon: typeof CalendarClock;
  title: string;
  description: string;
  children: ReactNode;
}) {
  return (
    <Card>
      <CardHeader>
        <div className="flex items-center gap-2">
          <Icon className="size-4 text-slate-500 dark:text-slate-400" aria-hidden="true" />
          <CardTitle className="text-base">{title}</CardTitle>
        </div>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}

function ReadOnlySettings({ settings }: { settings: TPlatformSettings }) {
  const payments = describePaymentsStatus(settings.payments);
  const retentionDays = settings.logRetentionDays || LOGS.retentionDays;
  return (
    <div className="grid gap-6 lg:grid-cols-3">
      <SettingCard
        icon={MessageCircle}
        title="Platform WhatsApp Number"
        description="Password-reset codes are sent from this number."
      >
        <p className="text-xl font-semibold tabular-nums" data-testid="platform-whatsapp-number">
          {formatPhoneForDisplay(settings.platformWhatsappNumber) ?? 'Not set'}
        </p>
        <p className="mt-2 text-xs text-slate-500 dark:text-slate-400">
          Read-only here: it is set by the <code className="font-mono">PLATFORM_WHATSAPP_NUMBER</code> server variable.
        </p>
      </SettingCard>
      <SettingCard icon={CalendarClock} title="Log Retention" description="Old message and campaign logs are removed automatically.">
        <dl className="flex flex-col gap-2 text-sm">
          <div className="flex justify-between gap-4">
            <dt className="text-slate-500 dark:text-slate-400">Kept for</dt>
            <dd className="font-medium">{retentionDays} days</dd>
          </div>
          <div className="flex justify-between gap-4">
            <dt className="text-slate-500 dark:text-slate-400">Cleanup</dt>
            <dd className="font-medium">{describeCleanupSchedule(settings.cleanupSchedule)}</dd>
          </div>
        </dl>
      </SettingCard>
      <SettingCard icon={CreditCard} title="Online Payments" description="Wallet top-ups through Razorpay.">
        <Badge variant={payments.tone}>{payments.label}</Badge>
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">{payments.description}</p>
      </SettingCard>
    </div>
  );
}

/** /admin/settings (docs/decisions/2026-11-24-routes.md): global default prices and read-only platform facts. */
export function AdminSettingsPage() {
  const settings = useQuery({
    queryKey: adminKeys.settings,
    queryFn: async () => (await adminApi.settings()).settings,
  });

  let readOnly: ReactNode;
  if (settings.error) {
    readOnly = (
      <ErrorCard
        detail={errorText(settings.error, messages.admin.loadDataFailed)}
        onRetry={() => void settings.refetch()}
        isRetrying={settings.isFetching}
      />
    );
  } else if (settings.data) {
    readOnly = <ReadOnlySettings settings={settings.data} />;
  } else {
    readOnly = (
      <div className="flex justify-center py-8">
        <Spinner className="size-6" label={messages.common.loading} />
      </div>
    );
  }

  return (
    <div className="flex flex-col gap-6">
      <div>
        <h2 className="text-2xl font-bold tracking-tight">Platform Settings</h2>
        <p className="text-sm text-slate-500 dark:text-slate-400">Default prices and how the platform runs.</p>
      </div>
      <GlobalDefaultsCard />
      {readOnly}
    </div>
  );
}
