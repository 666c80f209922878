import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { fillMessage, messages } from '@shared/messages';
import type { TCampaign } from '@shared/schemas/sending';
import { formatIstLabel, resolveSchedule, toIstLocal, type ScheduleChoice } from '../../lib/sending/schedule';
import { ScheduleControl } from '../sending/ScheduleControl';
import { Button } from '../ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../ui/dialog';
import { Spinner } from '../ui/spinner';

const r = messages.reportsScreen;

/** The dialog's body, mounted on each opening so that it starts from the campaign's current time. */
function RescheduleForm({ campaign, busy, onConfirm, onClose }: { campaign: TCampaign; busy: boolean; onConfirm: (scheduledAt: string) => void; onClose: () => void }) {
  const [choice, setChoice] = useState<ScheduleChoice>(() => ({ mode: 'later', local: campaign.scheduledAt ? toIstLocal(campaign.scheduledAt) : '' }));

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    const timing = resolveSchedule(choice);
    if (!timing.ok || !timing.scheduledAt) {
      // The control already shows why under the field; the toast makes sure it is heard.
      toast.error(timing.ok ? messages.schedule.invalidTime : timing.problem);
      return;
    }
    onConfirm(timing.scheduledAt);
  };

  return (
    <form onSubmit={handleSubmit} noValidate className="flex flex-col gap-4">
      <DialogHeader>
        <DialogTitle>{r.rescheduleTitle}</DialogTitle>
        <DialogDescription>
          <span className="block font-medium text-slate-700 dark:text-slate-200">{campaign.name}</span>
          {campaign.scheduledAt ? <span className="mt-1 block">{fillMessage(r.scheduledFor, { time: formatIstLabel(campaign.scheduledAt) })}</span> : null}
          <span className="mt-1 block">{r.rescheduleBody}</span>
        </DialogDescription>
      </DialogHeader>
      <ScheduleControl idPrefix={`reschedule-${campaign.id}`} value={choice} onChange={setChoice} disabled={busy} hideModes />
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onClose} disabled={busy}>
          {messages.common.goBack}
        </Button>
        <Button type="submit" disabled={busy}>
          {busy ? <Spinner className="text-current" /> : null}
          {r.rescheduleSave}
        </Button>
      </DialogFooter>
    </form>
  );
}

/** Edit time of a scheduled campaign: the send screens' time field, then PATCH …/schedule. */
export function RescheduleDialog({
  campaign,
  busy,
  onConfirm,
  onClose,
}: {
  /** The scheduled campaign being re-timed; null when closed. */
  campaign: TCampaign | null;
  busy: boolean;
  onConfirm: (scheduledAt: string) => void;
  onClose: () => void;
}) {
  return (
    <Dialog open={campaign !== null} onOpenChange={(next) => (!next && !busy ? onClose() : undefined)}>
      <DialogContent className="max-w-lg" hideClose={busy} data-testid="reschedule-dialog">
        {campaign ? <RescheduleForm key={campaign.id} campaign={campaign} busy={busy} onConfirm={onConfirm} onClose={onClose} /> : null}
      </DialogContent>
    </Dialog>
  );
}
