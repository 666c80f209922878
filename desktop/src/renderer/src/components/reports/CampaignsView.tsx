import { ChevronLeft, ChevronRight, Megaphone, Send } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { toast } from 'sonner';
import { fillMessage, messages } from '@shared/messages';
import type { TSendAgainAudience } from '@shared/schemas/campaigns';
import type { TCampaign } from '@shared/schemas/sending';
import { TIMELINE_DAYS } from '../../api/campaigns';
import { errorText, toApiError } from '../../api/client';
import { useCampaignAction, useCampaignList, useCampaignTimeline, useRescheduleCampaign, useSendAgain } from '../../hooks/useCampaigns';
import { useNow } from '../../hooks/useNow';
import { CAMPAIGN_STATUS_OPTIONS, formatCount, pageLabel, type CampaignAction } from '../../lib/reports';
import { formatIstTime } from '../../lib/sending/schedule';
import { Alert } from '../ui/alert';
import { Button } from '../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { FieldShell } from '../ui/form-field';
import { NativeSelect } from '../ui/native-select';
import { Spinner } from '../ui/spinner';
import { CAMPAIGN_ACTION_TEXT, CampaignActionDialog } from './CampaignActionDialog';
import { CampaignCard } from './CampaignCard';
import { RescheduleDialog } from './RescheduleDialog';
import { SendAgainDialog } from './SendAgainDialog';
import type { SendAgainChoice } from '../../api/campaigns';
import { TimelineChart } from './TimelineChart';

const r = messages.reportsScreen;

/** The chart's "today" moves on while the screen stays open. */
const CLOCK_MS = 60_000;

function ActivityCard() {
  const timeline = useCampaignTimeline(TIMELINE_DAYS);
  const now = useNow(CLOCK_MS);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Message activity</CardTitle>
        <CardDescription>Sent, delivered, read and failed messages per day over the last {TIMELINE_DAYS} days.</CardDescription>
      </CardHeader>
      <CardContent>
        {timeline.isPending ? (
          <div className="h-56 animate-pulse rounded-lg bg-slate-100 dark:bg-slate-800/60" aria-busy="true">
            <Spinner label="Loading the activity chart" />
          </div>
        ) : timeline.isError ? (
          <Alert tone="error">
            <div className="flex flex-wrap items-center justify-between gap-3">
              <span>{errorText(timeline.error, r.timelineLoadFailed)}</span>
              <Button size="sm" variant="outline" onClick={() => void timeline.refetch()} disabled={timeline.isFetching}>
                Retry
              </Button>
            </div>
          </Alert>
        ) : (
          <TimelineChart points={timeline.data} days={TIMELINE_DAYS} now={now} />
        )}
      </CardContent>
    </Card>
  );
}

function EmptyCampaigns({ filtered }: { filtered: boolean }) {
  return (
    <Card>
      <CardContent className="flex flex-col items-center gap-3 p-10 text-center" data-testid="campaigns-empty">
        <span className="flex size-12 items-center justify-center rounded-full bg-emerald-100 text-emerald-700 dark:bg-emerald-500/15 dark:text-emerald-300">
          <Megaphone className="size-6" aria-hidden="true" />
        </span>
        {filtered ? (
          <h3 className="text-lg font-semibold">{r.noCampaignsMatch}</h3>
        ) : (
          <>
            <h3 className="text-lg font-semibold">{r.noCampaigns}</h3>
            <p className="max-w-sm text-sm text-slate-500 dark:text-slate-400">{r.noCampaignsBody}</p>
            <Button asChild>
              <Link to="/user/whatsapp-bulk">
                <Send aria-hidden="true" />
                New Campaign
              </Link>
            </Button>
          </>
        )}
      </CardContent>
    </Card>
  );
}

/**
 * The campaigns view of Manage Reports: the activity chart, then each campaign with its progress
 * and the actions its state allows (pause, resume, cancel with the refund said plainly, send again to
 * a group (those who failed, replied, tapped a button, read without replying) after its cost is shown, a scheduled one's new time). Running campaigns are followed live.
 */
export function CampaignsView() {
  const [status, setStatus] = useState('all');
  const [page, setPage] = useState(1);
  const list = useCampaignList({ page, status });
  const campaignAction = useCampaignAction();
  const [pendingAction, setPendingAction] = useState<{ campaign: TCampaign; action: CampaignAction } | null>(null);
  const sendAgain = useSendAgain();
  const [sendingAgain, setSendingAgain] = useState<{ campaign: TCampaign; audience: TSendAgainAudience } | null>(null);
  const reschedule = useRescheduleCampaign();
  const [rescheduling, setRescheduling] = useState<TCampaign | null>(null);

  const campaigns = list.data?.campaigns ?? [];
  const totalPages = Math.max(1, list.data?.totalPages ?? 1);

  const handleConfirmAction = async () => {
    if (!pendingAction) return;
    const { campaign, action } = pendingAction;
    try {
      const response = await campaignAction.mutateAsync({ id: campaign.id, action });
      toast.success(response.message || CAMPAIGN_ACTION_TEXT[action].done);
    } catch (error) {
      toast.error(CAMPAIGN_ACTION_TEXT[action].failed, { description: errorText(error, CAMPAIGN_ACTION_TEXT[action].failed) });
    } finally {
      setPendingAction(null);
    }
  };

  const handleConfirmSendAgain = async (choice: SendAgainChoice) => {
    if (!sendingAgain) return;
    try {
      const response = await sendAgain.mutateAsync({ id: sendingAgain.campaign.id, choice });
      toast.success(response.message || fillMessage(r.resendAccepted, { count: formatCount(response.data.accepted) }));
      setSendingAgain(null);
    } catch (error) {
      const failed = choice.audience === 'failed' ? r.resendFailed : r.sendAgainFailed;
      toast.error(failed, { description: errorText(error, failed) });
    }
  };

  const handleConfirmReschedule = async (scheduledAt: string) => {
    if (!rescheduling) return;
    try {
      const response = await reschedule.mutateAsync({ id: rescheduling.id, scheduledAt });
      toast.success(response.message || fillMessage(messages.campaigns.rescheduled, { time: formatIstTime(response.data.scheduledAt ?? scheduledAt) }));
      setRescheduling(null);
    } catch (error) {
      toast.error(r.rescheduleFailed, { description: errorText(error, r.rescheduleFailed) });
      // A 409: the campaign started meanwhile, so there is no time left to change. A 400 stays open to correct.
      if (toApiError(error).status === 409) setRescheduling(null);
    }
  };

  return (
    <div className="flex flex-col gap-6">
      <ActivityCard />

      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 className="text-lg font-semibold">Campaigns</h2>
          <p className="text-sm text-slate-500 dark:text-slate-400">
            {list.data ? `${formatCount(list.data.total)} ${list.data.total === 1 ? 'campaign' : 'campaigns'}` : '\u00a0'}
          </p>
        </div>
        <FieldShell id="campaign-status-filter" label="Campaign Status" className="w-56">
          <NativeSelect
            id="campaign-status-filter"
            value={status}
            onChange={(event) => {
              setStatus(event.target.value);
              setPage(1);
            }}
          >
            {CAMPAIGN_STATUS_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </NativeSelect>
        </FieldShell>
      </div>

      {list.isPending ? (
        <div className="flex flex-col gap-3" aria-busy="true">
          <Spinner label="Loading campaigns" />
          {[0, 1].map((row) => (
            <div key={row} className="h-48 animate-pulse rounded-xl bg-slate-200/70 dark:bg-slate-800/70" />
          ))}
        </div>
      ) : list.isError && !list.data ? (
        <Alert tone="error">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <span>{errorText(list.error, r.campaignsLoadFailed)}</span>
            <Button size="sm" variant="outline" onClick={() => void list.refetch()} disabled={list.isFetching}>
              Retry
            </Button>
          </div>
        </Alert>
      ) : campaigns.length === 0 ? (
        <EmptyCampaigns filtered={status !== 'all'} />
      ) : (
        <div className="flex flex-col gap-4" data-testid="campaign-list">
          {campaigns.map((campaign) => (
            <CampaignCard
              key={campaign.id}
              campaign={campaign}
              onAction={(action) => setPendingAction({ campaign, action })}
              onResendFailed={() => setSendingAgain({ campaign, audience: 'failed' })}
              onSendAgain={() => setSendingAgain({ campaign, audience: 'replied' })}
              onReschedule={() => setRescheduling(campaign)}
            />
          ))}
        </div>
      )}

      {list.data && list.data.totalPages > 1 ? (
        <nav aria-label="Campaign pages" className="flex items-center justify-end gap-2 text-sm">
          <Button variant="outline" size="sm" onClick={() => setPage((current) => current - 1)} disabled={page <= 1}>
            <ChevronLeft aria-hidden="true" />
            Previous
          </Button>
          <span className="min-w-24 text-center tabular-nums" aria-live="polite">
            {pageLabel(page, totalPages)}
          </span>
          <Button variant="outline" size="sm" onClick={() => setPage((current) => current + 1)} disabled={page >= totalPages}>
            Next
            <ChevronRight aria-hidden="true" />
          </Button>
        </nav>
      ) : null}

      <CampaignActionDialog
        action={pendingAction?.action ?? null}
        campaignName={pendingAction?.campaign.name ?? ''}
        scheduledCost={pendingAction?.campaign.status === 'scheduled' ? pendingAction.campaign.totalCost : null}
        busy={campaignAction.isPending}
        onConfirm={() => void handleConfirmAction()}
        onClose={() => setPendingAction(null)}
      />
      <RescheduleDialog
        campaign={rescheduling}
        busy={reschedule.isPending}
        onConfirm={(scheduledAt) => void handleConfirmReschedule(scheduledAt)}
        onClose={() => setRescheduling(null)}
      />
      <SendAgainDialog
        campaign={sendingAgain?.campaign ?? null}
        audience={sendingAgain?.audience ?? 'replied'}
        onClose={() => setSendingAgain(null)}
        onConfirm={(choice) => void handleConfirmSendAgain(choice)}
        isSending={sendAgain.isPending}
      />
    </div>
  );
}
