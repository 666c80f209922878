import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { createSendSubmission, initialSubmission, type SendSubmission, type SubmissionState, type SubmitRequest } from '../lib/sending/submission';

export interface SendSubmissionView<TSnapshot> extends SubmissionState<TSnapshot> {
  /** Starts a confirmed send; a refusal is always shown as a toast (docs/sending.md "The send screens": a refused send must be seen). */
  submit: (request: Omit<SubmitRequest<TSnapshot>, 'onFailure'>) => void;
  setDialogOpen: (open: boolean) => void;
  takeRestorable: () => TSnapshot | null;
}

/**
 * A send screen's confirmed send (`lib/sending/submission.ts` holds the rules): the delayed result
 * dialog, the race guard and the outcome. `dialogDelayMs` is fixed for the screen's lifetime.
 */
export function useSendSubmission<TSnapshot>(dialogDelayMs: number | null): SendSubmissionView<TSnapshot> {
  const [state, setState] = useState<SubmissionState<TSnapshot>>(initialSubmission);
  const [submission] = useState<SendSubmission<TSnapshot>>(() => createSendSubmission({ dialogDelayMs, onChange: setState }));

  useEffect(() => () => submission.dispose(), [submission]);

  return {
    ...state,
    submit: (request) => {
      void submission.submit({ ...request, onFailure: (failure) => toast.error(failure.title, { description: failure.description }) });
    },
    setDialogOpen: (open) => submission.setDialogOpen(open),
    takeRestorable: () => submission.takeRestorable(),
  };
}
