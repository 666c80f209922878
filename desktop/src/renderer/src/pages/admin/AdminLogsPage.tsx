import { CalendarClock, Database, FileText, History, Megaphone, RefreshCw, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { LOGS } from '@shared/constants';
import { fillMessage, messages } from '@shared/messages';
import { formatIndianNumber } from '@shared/money';
import type { TLogCleanupResponse, TLogCleanupRun } from '@shared/schemas/logs';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toApiError } from '../../api/client';
import { logsApi, logsKeys } from '../../api/logs';
import { StatGrid, statTints, type Stat } from '../../components/admin/StatCards';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Spinner } from '../../components/ui/spinner';
import { useNotificationStore } from '../../stores/notificationStore';
import type { NotificationType } from '../../lib/notifications';

const text = messages.logs;

/** The server's error text, else the spec's fallback for a failed answer or for no answer at all. */
function failureText(error: unknown, fallback: string, networkFallback: string): string {
  const apiError = toApiError(error);
  if (apiError.isNetworkError) return networkFallback;
  return apiError.serverMessage ?? fallback;
}

function formatWhen(iso: string): string {
  return new Date(iso).toLocaleString('en-IN', { dateStyle: 'medium', timeStyle: 'short' });
}

function LastDailyRun({ run }: { run: TLogCleanupRun | null }) {
  let line: string;
  if (!run) line = fillMessage(text.noDailyRun, { hour: String(LOGS.cleanupHourUtc).padStart(2, '0') });
  else if (run.error) line = fillMessage(text.lastDailyRunFailed, { when: formatWhen(run.startedAt), error: run.error });
  else line = fillMessage(text.lastDailyRun, { when: formatWhen(run.startedAt), total: formatIndianNumber(run.totalDeleted) });
  return (
    <p className="flex items-center gap-2 text-sm text-slate-600 dark:text-slate-300" data-testid="last-daily-run">
      <History className="size-4 shrink-0" aria-hidden="true" />
      {line}
    </p>
  );
}

const testButtons: { type: NotificationType; label: string; message: string }[] = [
  { type: 'success', label: text.testSuccess, message: text.sampleSuccess },
  { type: 'warning', label: text.testWarning, message: text.sampleWarning },
  { type: 'error', label: text.testError, message: text.sampleError },
  { type: 'info', label: text.testInfo, message: text.sampleInfo },
];

/** /admin/logs (spec 001 "Log Management"): old-log figures, the manual cleanup and the daily job's last run. */
export function AdminLogsPage() {
  const queryClient = useQueryClient();
  const notify = useNotificationStore((state) => state.notify);
  const [confirming, setConfirming] = useState(false);
  const [result, setResult] = useState<TLogCleanupResponse['deleted'] | null>(null);
  const [warning, setWarning] = useState<string | null>(null);

  const stats = useQuery({ queryKey: logsKeys.stats, queryFn: logsApi.stats, retry: 1, refetchOnWindowFocus: false });
  const cleanup = useMutation({
    mutationFn: logsApi.cleanup,
    onSuccess: (answer) => {
      setConfirming(false);
      setResult(answer.deleted);
      if (answer.deleted.totalDeleted === 0) setWarning(text.nothingToClean);
      void queryClient.invalidateQueries({ queryKey: logsKeys.stats });
    },
    onError: () => setConfirming(false),
  });

  const figures = stats.data?.stats;
  const retentionDays = stats.data?.retentionDays ?? LOGS.retentionDays;
  const count = (value: number | undefined) => (value === undefined ? '—' : formatIndianNumber(value));
  const olderThan = fillMessage(text.olderThan, { days: retentionDays });
  const cards: Stat[] = [
    { label: text.messageLogs, value: count(figures?.messageLogsCount), icon: FileText, tint: statTints.sky, hint: olderThan },
    { label: text.campaignLogs, value: count(figures?.campaignLogsCount), icon: Megaphone, tint: statTints.violet, hint: olderThan },
    { label: text.totalOldLogs, value: count(figures?.totalCount), icon: Database, tint: statTints.amber, hint: olderThan },
  ];

  const handleCleanUp = () => {
    setResult(null);
    setWarning(null);
    if (figures && figures.totalCount === 0) {
      setWarning(text.nothingToClean);
      return;
    }
    setConfirming(true);
  };

  return (
    <div className="flex flex-col gap-6">
      <div>
        <h2 className="text-2xl font-bold tracking-tight">{text.title}</h2>
        <p className="text-sm text-slate-500 dark:text-slate-400">{text.subtitle}</p>
      </div>

      {stats.error ? <Alert tone="error">{failureText(stats.error, text.fetchStatsFailed, text.fetchStatsNetwork)}</Alert> : null}
      <StatGrid stats={cards} isLoading={stats.isLoading} className="sm:grid-cols-3 xl:grid-cols-3" />

      <Card>
        <CardHeader>
          <div className="flex items-center gap-2">
            <CalendarClock className="size-4 text-slate-500 dark:text-slate-400" aria-hidden="true" />
            <CardTitle className="text-base">{text.cleanUpNow}</CardTitle>
          </div>
          <CardDescription data-testid="threshold-date">
            {figures ? fillMessage(text.threshold, { date: formatWhen(figures.thresholdDate) }) : stats.isLoading ? messages.common.loading : ''}
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          <div className="flex flex-wrap gap-3">
            <Button variant="outline" onClick={() => void stats.refetch()} disabled={stats.isFetching}>
              {stats.isFetching ? <Spinner className="text-current" /> : <RefreshCw className="size-4" aria-hidden="true" />}
              {text.refreshStats}
            </Button>
            <Button variant="destructive" onClick={handleCleanUp} disabled={cleanup.isPending || !figures}>
              {cleanup.isPending ? <Spinner className="text-current" /> : <Trash2 className="size-4" aria-hidden="true" />}
              {cleanup.isPending ? text.cleaning : text.cleanUpNow}
            </Button>
          </div>
          {warning ? <Alert tone="warning">{warning}</Alert> : null}
          {cleanup.error ? <Alert tone="error">{failureText(cleanup.error, text.cleanupFailed, text.cleanupNetwork)}</Alert> : null}
          {result && result.totalDeleted > 0 ? (
            <Alert tone="success" data-testid="cleanup-result">
              {fillMessage(text.result, {
                total: formatIndianNumber(result.totalDeleted),
                messages: formatIndianNumber(result.messagesDeleted),
                campaigns: formatIndianNumber(result.campaignsDeleted),
              })}
            </Alert>
          ) : null}
          {stats.data ? <LastDailyRun run={stats.data.lastDailyRun} /> : null}
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle className="text-base">{text.testNotifications}</CardTitle>
        </CardHeader>
        <CardContent className="flex flex-wrap gap-3">
          {testButtons.map((button) => (
            <Button key={button.type} variant="outline" onClick={() => notify({ type: button.type, message: button.message })}>
              {button.label}
            </Button>
          ))}
        </CardContent>
      </Card>

      <ConfirmDialog
        open={confirming}
        title={text.confirmTitle}
        description={fillMessage(text.confirmText, { count: formatIndianNumber(figures?.totalCount ?? 0), days: retentionDays })}
        confirmLabel={fillMessage(text.confirm, { count: formatIndianNumber(figures?.totalCount ?? 0) })}
        busy={cleanup.isPending}
        onConfirm={() => cleanup.mutate()}
        onClose={() => setConfirming(false)}
      />
    </div>
  );
}
