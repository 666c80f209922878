import { Ban, CalendarClock, MessageSquareReply, Pause, Play, RotateCcw } from 'lucide-react';
import { messageFigures } from '@shared/figures';
import { fillMessage, messages } from '@shared/messages';
import { formatIndianNumber } from '@shared/money';
import type { TCampaign } from '@shared/schemas/sending';
import { useCampaignReplies } from '../../hooks/useCampaigns';
import { cn } from '../../lib/cn';
import { campaignActions, formatCount, formatReportTime, type CampaignAction } from '../../lib/reports';
import { CAMPAIGN_STATUS_LABELS, campaignProgress } from '../../lib/sending/campaign';
import { formatIstLabel } from '../../lib/sending/schedule';
import { formatCost, templateDisplayName } from '../../lib/sending/setup';
import { ProgressBar } from '../sending/SetupProgress';
import { Alert } from '../ui/alert';
import { Badge, type BadgeProps } from '../ui/badge';
import { Button } from '../ui/button';
import { Card, CardContent } from '../ui/card';

const STATUS_TONE: Record<TCampaign['status'], BadgeProps['variant']> = {
  scheduled: 'outline',
  failed: 'destructive',
  running: 'info',
  paused: 'warning',
  cancelled: 'secondary',
  completed: 'default',
};

const SOURCE_LABEL: Record<TCampaign['source'], string> = {
  quick: 'Quick Send',
  bulk: 'Bulk Send',
  custom: 'Customize Message',
  api: 'API',
};

function Count({ label, value, tone }: { label: string; value: number; tone?: string }) {
  return (
    <div className="flex flex-col rounded-lg border border-slate-200 px-3 py-2 dark:border-slate-800">
      <dt className="text-xs text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className={cn('text-base font-semibold tabular-nums', tone)}>{formatCount(value)}</dd>
    </div>
  );
}

/** One campaign: its state, progress bar, outcome counts, cost, and the actions its state allows. */
export function CampaignCard({
  campaign,
  onAction,
  onResendFailed,
  onSendAgain,
  onReschedule,
}: {
  campaign: TCampaign;
  onAction: (action: CampaignAction) => void;
  onResendFailed: () => void;
  /** "Send again to…" those who replied, tapped a button, or read without replying. */
  onSendAgain: () => void;
  /** Edit time of a scheduled campaign. */
  onReschedule: () => void;
}) {
  const progress = campaignProgress(campaign);
  const actions = campaignActions(campaign);
  // One definition of each figure (shared/figures.ts): delivered includes read, cancelled is apart.
  const figures = messageFigures(campaign.counts);
  const created = formatReportTime(campaign.createdAt);
  const { cancelled, failed } = figures;
  const resent = (campaign.resentCampaignId ?? null) !== null;
  // Nothing has gone out of a campaign still waiting for its time, or of one that never started.
  const notStarted = campaign.status === 'scheduled' || campaign.status === 'failed';

  return (
    <Card data-testid="campaign-card">
      <CardContent className="flex flex-col gap-4 p-5">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="flex min-w-0 flex-col gap-1">
            <h3 className="text-base font-semibold break-words text-slate-900 dark:text-white">{campaign.name}</h3>
            <p className="text-xs text-slate-500 dark:text-slate-400">
              {templateDisplayName(campaign.templateName)} · {SOURCE_LABEL[campaign.source]}
              {created ? ` · ${created}` : ''}
            </p>
            {campaign.sentBy ? (
              <p className="text-xs text-slate-500 dark:text-slate-400" data-testid="campaign-sent-by">
                {fillMessage(messages.reportsScreen.sentBy, { name: campaign.sentBy.name })}
              </p>
            ) : null}
          </div>
          <Badge variant={STATUS_TONE[campaign.status]} data-testid="campaign-status">
            {CAMPAIGN_STATUS_LABELS[campaign.status]}
          </Badge>
        </div>

        {campaign.status === 'scheduled' ? (
          <p className="flex items-center gap-2 text-sm font-medium text-slate-700 dark:text-slate-200" data-testid="campaign-scheduled-at">
            <CalendarClock className="size-4 text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
            {fillMessage(messages.reportsScreen.scheduledFor, { time: formatIstLabel(campaign.scheduledAt) })}
          </p>
        ) : null}
        {campaign.status === 'paused' && campaign.pauseReason === 'template_paused' ? (
          <Alert tone="warning" data-testid="campaign-pause-reason">
            {messages.templateHolds.pausedForTemplate}
          </Alert>
        ) : null}
        {campaign.status === 'paused' && campaign.pauseReason === 'sender_stopped' ? (
          <Alert tone="warning" data-testid="campaign-pause-reason">
            {messages.senderStops.pausedForSender}
          </Alert>
        ) : null}
        {campaign.status === 'paused' && campaign.pauseReason === 'number_disconnected' ? (
          <Alert tone="warning" data-testid="campaign-pause-reason">
            {messages.whatsappConnect.pausedForDisconnect}
          </Alert>
        ) : null}
        {campaign.status === 'failed' ? (
          <Alert tone="error" data-testid="campaign-failure-reason">
            {campaign.failureReason || messages.reportsScreen.failedToStartFallback}
          </Alert>
        ) : null}

        {notStarted ? null : (
          <>
            <div className="flex flex-col gap-1.5">
              <ProgressBar percent={progress.percent} label={`Progress of ${campaign.name}`} tone={campaign.status === 'completed' ? 'emerald' : 'sky'} />
              <p className="flex flex-wrap justify-between gap-2 text-xs text-slate-600 tabular-nums dark:text-slate-300" data-testid="campaign-progress-text">
                <span>
                  {formatIndianNumber(progress.processed)} of {formatIndianNumber(progress.total)} processed ({progress.percent}%)
                </span>
                {progress.pending > 0 ? <span>{formatIndianNumber(progress.pending)} waiting to be sent</span> : null}
              </p>
            </div>

            <dl className="grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-6">
              <Count label="Sent" value={figures.sent} />
              <Count label="Delivered" value={figures.delivered} tone="text-emerald-700 dark:text-emerald-300" />
              <Count label="Read" value={figures.read} tone="text-sky-700 dark:text-sky-300" />
              <Count label="Failed" value={failed} tone={failed > 0 ? 'text-red-600 dark:text-red-400' : undefined} />
              <Count label={messages.reportsScreen.replies} value={campaign.replies ?? 0} tone="text-violet-700 dark:text-violet-300" />
              <div className="flex flex-col rounded-lg border border-slate-200 px-3 py-2 dark:border-slate-800">
                <dt className="text-xs text-slate-500 dark:text-slate-400">{messages.reportsScreen.replyRate}</dt>
                <dd className="text-base font-semibold tabular-nums" data-testid="campaign-reply-rate">
                  {formatIndianNumber(campaign.reply_rate ?? 0, 1)}%
                </dd>
              </div>
            </dl>
            {(campaign.replies ?? 0) > 0 ? <ButtonTaps campaignId={campaign.id} /> : null}
          </>
        )}

        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="text-sm text-slate-600 dark:text-slate-300">
            Cost <span className="font-semibold tabular-nums">{formatCost(campaign.totalCost)}</span>
            {campaign.status === 'scheduled' ? <span className="text-slate-500 dark:text-slate-400"> · reserved from your wallet</span> : null}
            {campaign.refunded > 0 ? <span className="text-slate-500 dark:text-slate-400"> · {formatCost(campaign.refunded)} refunded</span> : null}
            {figures.duplicate > 0 ? <span className="text-slate-500 dark:text-slate-400"> · {fillMessage(messages.counts.duplicatesBlocked, { count: formatCount(figures.duplicate) })}</span> : null}
            {cancelled > 0 ? (
              <span className="text-slate-500 dark:text-slate-400" data-testid="campaign-cancelled-count">
                {' '}
                · {formatCount(cancelled)} cancelled before sending
              </span>
            ) : null}
            {resent ? (
              <span className="text-slate-500 dark:text-slate-400" data-testid="campaign-resent">
                {' '}
                · {messages.campaigns.failuresResent}
              </span>
            ) : null}
          </p>
          <div className="flex flex-wrap gap-2">
            {actions.pause ? (
              <Button variant="outline" size="sm" onClick={() => onAction('pause')}>
                <Pause aria-hidden="true" />
                Pause<span className="sr-only"> {campaign.name}</span>
              </Button>
            ) : null}
            {actions.resume ? (
              <Button variant="outline" size="sm" onClick={() => onAction('resume')}>
                <Play aria-hidden="true" />
                Resume<span className="sr-only"> {campaign.name}</span>
              </Button>
            ) : null}
            {actions.reschedule ? (
              <Button variant="outline" size="sm" onClick={onReschedule}>
                <CalendarClock aria-hidden="true" />
                {messages.reportsScreen.editTime}
                <span className="sr-only"> of {campaign.name}</span>
              </Button>
            ) : null}
            {actions.cancel ? (
              <Button
                variant="ghost"
                size="sm"
                onClick={() => onAction('cancel')}
                className="text-red-600 hover:bg-red-50 hover:text-red-700 dark:text-red-400 dark:hover:bg-red-500/10"
              >
                <Ban aria-hidden="true" />
                Cancel<span className="sr-only"> {campaign.name}</span>
              </Button>
            ) : null}
            {!notStarted && figures.read + (campaign.replies ?? 0) > 0 ? (
              <Button variant="outline" size="sm" onClick={onSendAgain}>
                <MessageSquareReply aria-hidden="true" />
                {messages.reportsScreen.sendAgain}
                <span className="sr-only"> {campaign.name}</span>
              </Button>
            ) : null}
            {actions.resendFailed ? (
              <Button size="sm" onClick={onResendFailed}>
                <RotateCcw aria-hidden="true" />
                Resend to failed ({formatCount(campaign.counts.failed)})<span className="sr-only"> of {campaign.name}</span>
              </Button>
            ) : null}
          </div>
        </div>
      </CardContent>
    </Card>
  );
}

/** Taps per quick-reply button of a campaign that has replies. */
function ButtonTaps({ campaignId }: { campaignId: number }) {
  const replies = useCampaignReplies(campaignId, true);
  const taps = replies.data?.button_taps ?? [];
  if (taps.length === 0) return null;
  return (
    <div className="flex flex-col gap-1 text-sm" data-testid="campaign-button-taps">
      <p className="text-xs text-slate-500 dark:text-slate-400">{messages.reportsScreen.buttonTaps}</p>
      <ul className="flex flex-wrap gap-2">
        {taps.map((tap) => (
          <li key={tap.text} className="rounded-full border border-slate-200 px-2.5 py-0.5 text-slate-700 dark:border-slate-700 dark:text-slate-200">
            {fillMessage(messages.reportsScreen.buttonTapCount, { text: tap.text, count: formatIndianNumber(tap.taps) })}
          </li>
        ))}
      </ul>
    </div>
  );
}
