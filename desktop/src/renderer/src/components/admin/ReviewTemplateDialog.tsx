import { Ban, CheckCircle2, XCircle } from 'lucide-react';
import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import { toast } from 'sonner';
import { messages } from '@shared/messages';
import { ZTemplateStatusRequest, type TTemplateStatusRequest } from '@shared/schemas/templates';
import type { TTemplate } from '@shared/types';
import { errorText } from '../../api/client';
import type { ReviewDecision } from '../../lib/templateReview';
import { FormTextareaField } from '../form/fields';
import { useSchemaForm } from '../form/useSchemaForm';
import { Alert } from '../ui/alert';
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
import { useSetTemplateStatus } from '../../hooks/useAdminTemplates';

const t = messages.templates;

/** The server's cap on a rejection reason (ZTemplateStatusRequest). */
const REASON_MAX = 500;

export interface PendingReview {
  template: TTemplate;
  decision: ReviewDecision;
}

interface ReviewFormProps {
  review: PendingReview;
  ownerName: string;
  setStatus: ReturnType<typeof useSetTemplateStatus>;
  onDone: () => void;
}

function ReviewForm({ review, ownerName, setStatus, onDone }: ReviewFormProps) {
  const { template, decision } = review;
  const form = useSchemaForm(ZTemplateStatusRequest, { status: decision, reason: '' });
  const reason = useWatch({ control: form.control, name: 'reason' }) ?? '';
  const [error, setError] = useState('');
  const isReject = decision === 'REJECTED';
  const isDisable = decision === 'DISABLED';
  const needsReason = isReject || isDisable;
  const busy = setStatus.isPending;

  const handleReview = async (request: TTemplateStatusRequest) => {
    setError('');
    try {
      const body = needsReason ? request : { status: request.status };
      const response = await setStatus.mutateAsync({ templateId: template.id, body });
      // An approval is sent to Meta at once: the answer says it is in review there, or that Meta
      // refused it (then the template is rejected with Meta's words), or that it will be sent again.
      const refusedByMeta = !needsReason && response.data.status === 'REJECTED';
      if (refusedByMeta) toast.error(response.message);
      else if (!needsReason && response.data.inMetaReview && !response.data.metaSubmittedAt) toast.warning(response.message);
      else toast.success(response.message || (isReject ? t.rejected : t.approved));
      onDone();
    } catch (caught) {
      // The status call's text comes from `message` (api/adminTemplates.ts), else the catalogue's.
      const text = errorText(caught, t.statusUpdateFailed);
      setError(text);
      toast.error(text);
    }
  };

  return (
    <form noValidate onSubmit={(event) => void form.handleSubmit(handleReview)(event)} className="flex flex-col gap-4">
      <AlertDialogHeader>
        <AlertDialogTitle className="flex items-center gap-2">
          {isDisable ? (
            <Ban className="size-5 text-red-600 dark:text-red-400" aria-hidden="true" />
          ) : isReject ? (
            <XCircle className="size-5 text-red-600 dark:text-red-400" aria-hidden="true" />
          ) : (
            <CheckCircle2 className="size-5 text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
          )}
          {isDisable ? 'Disable Template' : isReject ? 'Reject Template' : 'Approve Template'}
        </AlertDialogTitle>
        <AlertDialogDescription>
          {isDisable ? 'Disable ' : isReject ? 'Reject ' : 'Approve '}
          <strong className="font-mono text-slate-900 dark:text-white">{template.name}</strong>?{' '}
          {isDisable
            ? `${ownerName} can no longer send with it. Campaigns using it stop, and their unsent messages are refunded.`
            : isReject
              ? `${ownerName} will see your reason and can edit and resubmit the template.`
              : `${ownerName} can then send messages with it.`}
        </AlertDialogDescription>
      </AlertDialogHeader>

      {error ? <Alert tone="error">{error}</Alert> : null}

      {needsReason ? (
        <FormTextareaField
          control={form.control}
          name="reason"
          label={isDisable ? 'Reason for Disabling' : 'Rejection Reason'}
          rows={4}
          maxLength={REASON_MAX}
          disabled={busy}
          placeholder={isDisable ? 'e.g. Recipients reported it as spam.' : 'e.g. The body promotes a prohibited product; please remove the offer line.'}
          hint={`Shown to the user on their templates page. ${reason.length}/${REASON_MAX}`}
          className="resize-y"
        />
      ) : null}
      {form.formState.errors.status ? <Alert tone="error">{form.formState.errors.status.message}</Alert> : null}

      <AlertDialogFooter>
        <AlertDialogCancel type="button" disabled={busy}>
          Cancel
        </AlertDialogCancel>
        {/* A submit button rather than the Radix Action, which would close before the call answers. */}
        <Button type="submit" variant={needsReason ? 'destructive' : 'default'} disabled={busy}>
          {busy ? <Spinner className="text-current" /> : null}
          {isDisable ? 'Confirm Disable' : isReject ? 'Confirm Reject' : 'Confirm Approve'}
        </Button>
      </AlertDialogFooter>
    </form>
  );
}

/** Spec 001 §4: a confirmation always comes before a template is approved or rejected. */
export function ReviewTemplateDialog({
  review,
  ownerName,
  onClose,
}: {
  review: PendingReview | null;
  ownerName: string;
  onClose: () => void;
}) {
  const setStatus = useSetTemplateStatus();
  const busy = setStatus.isPending;
  return (
    <AlertDialog
      open={review !== null}
      onOpenChange={(open) => {
        if (!open && !busy) onClose();
      }}
    >
      <AlertDialogContent
        onOpenAutoFocus={(event) => {
          // A rejection starts with its reason; Radix would otherwise focus Cancel.
          const reasonField = event.currentTarget instanceof HTMLElement ? event.currentTarget.querySelector('textarea') : null;
          if (reasonField) {
            event.preventDefault();
            reasonField.focus();
          }
        }}
      >
        {review ? (
          // Keyed so that each opening starts with an empty reason and no old error.
          <ReviewForm
            key={`${review.template.id}-${review.decision}`}
            review={review}
            ownerName={ownerName}
            setStatus={setStatus}
            onDone={onClose}
          />
        ) : null}
      </AlertDialogContent>
    </AlertDialog>
  );
}
