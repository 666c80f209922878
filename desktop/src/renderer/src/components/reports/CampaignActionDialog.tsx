import { fillMessage, messages } from '@shared/messages';
import type { CampaignAction } from '../../lib/reports';
import { formatCost } from '../../lib/sending/setup';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '../ui/alert-dialog';
import { Button } from '../ui/button';
import { Spinner } from '../ui/spinner';

const r = messages.reportsScreen;

export const CAMPAIGN_ACTION_TEXT: Record<CampaignAction, { title: string; body: string; confirm: string; done: string; failed: string }> = {
  pause: { title: r.pauseTitle, body: r.pauseBody, confirm: 'Pause Campaign', done: r.paused, failed: r.pauseFailed },
  resume: { title: r.resumeTitle, body: r.resumeBody, confirm: 'Resume Campaign', done: r.resumed, failed: r.resumeFailed },
  cancel: { title: r.cancelTitle, body: r.cancelBody, confirm: 'Cancel Campaign', done: r.cancelled, failed: r.cancelFailed },
};

/**
 * Confirmation of pause, resume or cancel; it stays open, busy, until the server answers. Cancelling
 * a scheduled send says that its whole cost comes back, since nothing of it was sent.
 */
export function CampaignActionDialog({
  action,
  campaignName,
  scheduledCost = null,
  busy,
  onConfirm,
  onClose,
}: {
  /** The action to confirm; null when the dialog is closed. */
  action: CampaignAction | null;
  campaignName: string;
  /** The reserved cost of a scheduled campaign; null for one already sending. */
  scheduledCost?: number | null;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const base = action ? CAMPAIGN_ACTION_TEXT[action] : null;
  const text =
    base && action === 'cancel' && scheduledCost !== null
      ? { ...base, title: r.cancelScheduledTitle, body: fillMessage(r.cancelScheduledBody, { cost: formatCost(scheduledCost) }) }
      : base;
  return (
    <AlertDialog
      open={action !== null}
      onOpenChange={(next) => {
        if (!next && !busy) onClose();
      }}
    >
      <AlertDialogContent data-testid="campaign-action-dialog">
        <AlertDialogHeader>
          <AlertDialogTitle>{text?.title}</AlertDialogTitle>
          <AlertDialogDescription>
            <span className="block font-medium text-slate-700 dark:text-slate-200">{campaignName}</span>
            <span className="mt-2 block">{text?.body}</span>
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={busy}>{messages.common.goBack}</AlertDialogCancel>
          {/* A plain button: the Radix Action would close the dialog before the call answers. */}
          <Button variant={action === 'cancel' ? 'destructive' : 'default'} onClick={onConfirm} disabled={busy}>
            {busy ? <Spinner className="text-current" /> : null}
            {text?.confirm}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
