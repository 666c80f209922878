import { Ban, CheckCircle2, XCircle } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { messages } from '@shared/messages';
import { ZTemplateStatusRequest } from '@shared/schemas/templates';
import type { TTemplate } from '@shared/types';
import { errorText } from '../../api/client';
import { validateForm, type FieldErrors } from '../../lib/forms';
import type { ReviewDecision } from '../../lib/templateReview';
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
import { FieldError } from '../ui/input';
import { Label } from '../ui/label';
import { Spinner } from '../ui/spinner';
import { Textarea } from '../ui/textarea';
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
  const reasonId = useId();
  const [reason, setReason] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [error, setError] = useState('');
  const { template, decision } = review;
  const isReject = decision === 'REJECTED';
  const isDisable = decision === 'DISABLED';
  const needsReason = isReject || isDisable;
  const busy = setStatus.isPending;

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setError('');
    const validation = validateForm(ZTemplateStatusRequest, needsReason ? { status: decision, reason } : { status: decision });
    if (!validation.ok) {
      setFieldErrors(validation.errors);
      return;
    }
    try {
      const response = await setStatus.mutateAsync({ templateId: template.id, body: validation.data });
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
    <form noValidate onSubmit={handleSubmit} className="flex flex-col gap-4">
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
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={reasonId}>{isDisable ? 'Reason for Disabling' : 'Rejection Reason'}</Label>
          <Textarea
            id={reasonId}
            value={reason}
            rows={4}
            maxLength={REASON_MAX}
            disabled={busy}
            placeholder={isDisable ? 'e.g. Recipients reported it as spam.' : 'e.g. The body promotes a prohibited product; please remove the offer line.'}
            invalid={Boolean(fieldErrors.reason)}
            aria-describedby={fieldErrors.reason ? `${reasonId}-error` : `${reasonId}-hint`}
            onChange={(e) => {
              setReason(e.target.value);
              setFieldErrors({});
            }}
            className="resize-y"
          />
          {fieldErrors.reason ? (
            <FieldError id={`${reasonId}-error`} message={fieldErrors.reason} />
          ) : (
            <p id={`${reasonId}-hint`} className="text-xs text-slate-500 dark:text-slate-400">
              Shown to the user on their templates page. {reason.length}/{REASON_MAX}
            </p>
          )}
        </div>
      ) : null}
      {fieldErrors.status ? <Alert tone="error">{fieldErrors.status}</Alert> : null}

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
