import { Controller } from 'react-hook-form';
import { toast } from 'sonner';
import { fillMessage, messages } from '@shared/messages';
import type { TCampaign } from '@shared/schemas/sending';
import { formatIstLabel, rescheduleFormSchema, toIstLocal, type TRescheduleForm } from '../../lib/sending/schedule';
import { useSchemaForm } from '../form/useSchemaForm';
import { ScheduleControl } from '../sending/ScheduleControl';
import { Button } from '../ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../ui/dialog';
import { Spinner } from '../ui/spinner';

const r = messages.reportsScreen;

/** The dialog's body, mounted on each opening so that it starts from the campaign's current time. */
function RescheduleForm({ campaign, busy, onConfirm, onClose }: { campaign: TCampaign; busy: boolean; onConfirm: (scheduledAt: string) => void; onClose: () => void }) {
  const form = useSchemaForm(rescheduleFormSchema(), {
    schedule: { mode: 'later', local: campaign.scheduledAt ? toIstLocal(campaign.scheduledAt) : '' },
  } satisfies TRescheduleForm);

  const handleSubmit = form.handleSubmit(
    ({ scheduledAt }) => onConfirm(scheduledAt),
    // The control already shows why under the field; the toast makes sure it is heard.
    (errors) => toast.error(errors.schedule?.message ?? messages.schedule.invalidTime),
  );

  return (
    <form onSubmit={(event) => void handleSubmit(event)} noValidate className="flex flex-col gap-4">
      <DialogHeader>
        <DialogTitle>{r.rescheduleTitle}</DialogTitle>
        <DialogDescription>
          <span className="block font-medium text-slate-700 dark:text-slate-200">{campaign.name}</span>
          {campaign.scheduledAt ? <span className="mt-1 block">{fillMessage(r.scheduledFor, { time: formatIstLabel(campaign.scheduledAt) })}</span> : null}
          <span className="mt-1 block">{r.rescheduleBody}</span>
        </DialogDescription>
      </DialogHeader>
      <Controller
        control={form.control}
        name="schedule"
        render={({ field }) => <ScheduleControl idPrefix={`reschedule-${campaign.id}`} value={field.value} onChange={field.onChange} disabled={busy} hideModes />}
      />
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
