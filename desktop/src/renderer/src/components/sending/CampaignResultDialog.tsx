import { messageFigures } from '@shared/figures';
import { BarChart3, CalendarClock, CheckCircle2, CircleAlert } from 'lucide-react';
import { useEffect, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { fillMessage, messages } from '@shared/messages';
import { formatIndianNumber } from '@shared/money';
import type { TCampaignAccepted } from '@shared/schemas/sending';
import { useInvalidateCredits } from '../../hooks/useCreditBalance';
import { useCampaignProgress } from '../../hooks/useSending';
import { CAMPAIGN_STATUS_LABELS, campaignProgress } from '../../lib/sending/campaign';
import { formatCost } from '../../lib/sending/setup';
import type { SendOutcome } from '../../lib/sending/submission';
import { cn } from '../../lib/cn';
import { Alert } from '../ui/alert';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../ui/dialog';
import { Spinner } from '../ui/spinner';
import { ProgressBar } from './SetupProgress';
import { SkippedRowsList } from './SkippedRowsList';

const ui = messages.sendScreens;

function Count({ label, value, tone }: { label: string; value: number; tone?: string }) {
  return (
    <div className="flex flex-col rounded-lg border border-slate-200 px-3 py-2 dark:border-slate-800">
      <dt className="text-xs text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className={cn('text-lg font-semibold tabular-nums', tone)}>{formatIndianNumber(value)}</dd>
    </div>
  );
}

function Extra({ children }: { children: ReactNode }) {
  return <li className="text-sm text-slate-600 dark:text-slate-300">{children}</li>;
}

/** The accepted campaign's live progress while the dialog is open: stream events, polling where there is no stream. */
function LiveProgress({ accepted, open }: { accepted: TCampaignAccepted; open: boolean }) {
  const query = useCampaignProgress(accepted.campaignId, open);
  const invalidateCredits = useInvalidateCredits();
  const campaign = query.data;
  const view = campaign ? campaignProgress(campaign) : null;
  const figures = campaign ? messageFigures(campaign.counts) : null;
  const finished = view?.finished ?? false;

  // Failed messages are refunded as they fail: the balance shown elsewhere is re-read at the end.
  useEffect(() => {
    if (finished) invalidateCredits();
  }, [finished, invalidateCredits]);

  return (
    <section aria-label="Campaign progress" className="flex flex-col gap-3" data-testid="campaign-progress">
      <div className="flex items-center justify-between gap-3 text-sm">
        <span className="font-medium">Delivery progress</span>
        {campaign ? (
          <Badge variant={campaign.status === 'completed' ? 'default' : campaign.status === 'running' ? 'info' : 'secondary'} data-testid="campaign-status">
            {CAMPAIGN_STATUS_LABELS[campaign.status]}
          </Badge>
        ) : null}
      </div>
      <ProgressBar percent={view?.percent ?? 0} label="Delivery progress" tone="sky" />
      <p className="text-sm tabular-nums text-slate-600 dark:text-slate-300" aria-live="polite" data-testid="campaign-processed">
        {view
          ? `${formatIndianNumber(view.processed)} of ${formatIndianNumber(view.total)} processed (${view.percent}%)`
          : query.isError
            ? ui.campaignProgressUnavailable
            : messages.common.loading}
      </p>
      {campaign && figures ? (
        <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4">
          <Count label="Sent" value={figures.sent} />
          <Count label="Delivered" value={figures.delivered} tone="text-emerald-700 dark:text-emerald-300" />
          <Count label="Read" value={figures.read} tone="text-sky-700 dark:text-sky-300" />
          <Count label="Failed" value={figures.failed} tone={figures.failed > 0 ? 'text-red-600 dark:text-red-400' : undefined} />
        </dl>
      ) : null}
      {campaign && campaign.counts.unknown > 0 ? (
        <p className="text-xs text-amber-700 dark:text-amber-300">{fillMessage(messages.campaigns.awaitingConfirmation, { count: formatIndianNumber(campaign.counts.unknown) })}</p>
      ) : null}
      {view && view.pending > 0 ? (
        <p className="text-xs text-slate-500 dark:text-slate-400">{formatIndianNumber(view.pending)} waiting to be sent</p>
      ) : null}
      {campaign && campaign.refunded > 0 ? (
        <p className="text-xs text-slate-500 dark:text-slate-400">{formatCost(campaign.refunded)} refunded for failed messages</p>
      ) : null}
    </section>
  );
}

/**
 * The dialog after a send (spec 002 "Success": OK or 'Show Reports'), following the campaign the
 * server accepted until it completes. Polling stops when the dialog closes.
 */
export function CampaignResultDialog({
  open,
  onOpenChange,
  outcome,
  onRestore,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  outcome: SendOutcome | null;
  /** Offered after a refused quick send, whose form was already reset: puts it back. */
  onRestore?: () => void;
}) {
  const navigate = useNavigate();
  const handleShowReports = () => {
    onOpenChange(false);
    void navigate('/user/manage-reports');
  };

  // A scheduled send has nothing to follow yet: the dialog says when instead.
  const scheduled = outcome?.phase === 'accepted' && Boolean(outcome.accepted.scheduledAt);
  const title =
    outcome?.phase === 'failed' ? outcome.title : outcome?.phase === 'accepted' ? (scheduled ? ui.campaignScheduled : ui.campaignAccepted) : ui.campaignSubmitting;

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-xl" data-testid="send-result-dialog">
        <DialogHeader>
          <DialogTitle className="flex items-center gap-2">
            {outcome?.phase === 'failed' ? (
              <CircleAlert className="size-5 text-red-600 dark:text-red-400" aria-hidden="true" />
            ) : scheduled ? (
              <CalendarClock className="size-5 text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
            ) : outcome?.phase === 'accepted' ? (
              <CheckCircle2 className="size-5 text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
            ) : (
              <Spinner />
            )}
            {title}
          </DialogTitle>
          <DialogDescription>
            {outcome?.phase === 'accepted'
              ? outcome.message
              : outcome?.phase === 'failed'
                ? 'Nothing was charged for this send.'
                : 'Your messages are being handed to the server. You can close this window; the send carries on.'}
          </DialogDescription>
        </DialogHeader>

        {outcome?.phase === 'failed' ? <Alert tone="error">{outcome.description}</Alert> : null}

        {outcome?.phase === 'accepted' ? (
          <>
            <ul className="flex flex-col gap-1" aria-label="What the server accepted">
              <Extra>
                <span className="font-medium tabular-nums">{formatIndianNumber(outcome.accepted.accepted)}</span>{' '}
                {outcome.accepted.accepted === 1 ? 'message' : 'messages'} {scheduled ? 'scheduled' : 'queued'}, costing{' '}
                <span className="font-medium">{formatCost(outcome.accepted.totalCost)}</span>
                {scheduled ? ' (reserved from your wallet)' : null}
              </Extra>
              {(outcome.accepted.repeats ?? 0) > 0 ? (
                <Extra>{fillMessage(messages.sending.repeatsInList, { count: formatIndianNumber(outcome.accepted.repeats ?? 0) })}</Extra>
              ) : null}
              {outcome.accepted.duplicates - (outcome.accepted.repeats ?? 0) > 0 ? (
                <Extra>{fillMessage(messages.sending.duplicateBlockedRecent, { count: formatIndianNumber(outcome.accepted.duplicates - (outcome.accepted.repeats ?? 0)) })}</Extra>
              ) : null}
              {outcome.accepted.invalid > 0 ? <Extra>{fillMessage(messages.counts.invalidSkipped, { count: formatIndianNumber(outcome.accepted.invalid) })}</Extra> : null}
              {outcome.accepted.suppressed > 0 ? (
                <Extra>{formatIndianNumber(outcome.accepted.suppressed)} opted out (not sent, not charged)</Extra>
              ) : null}
            </ul>
            <SkippedRowsList rows={outcome.accepted.skippedRows ?? []} total={outcome.accepted.skippedCount} />
            {scheduled ? (
              <Alert tone="info" data-testid="campaign-scheduled">
                {ui.scheduledDialogBody}
              </Alert>
            ) : (
              <LiveProgress accepted={outcome.accepted} open={open} />
            )}
          </>
        ) : null}

        <DialogFooter>
          {outcome?.phase === 'failed' && onRestore ? (
            <Button variant="outline" onClick={onRestore}>
              {ui.restoreForm}
            </Button>
          ) : null}
          <Button variant="outline" onClick={handleShowReports}>
            <BarChart3 aria-hidden="true" />
            {ui.showReports}
          </Button>
          <Button onClick={() => onOpenChange(false)}>OK</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
