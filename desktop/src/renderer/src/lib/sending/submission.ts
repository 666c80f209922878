/**
 * Submitting a confirmed send, without React (the logic of `hooks/useSendSubmission`): the result
 * dialog that appears after a delay while the request carries on (spec 002 §4: "after about a
 * second"), or once the send is accepted; the race guard that lets only the latest send change
 * the dialog; and the outcome it shows, including what a refused send can put back in the form.
 */
import type { TCampaignAccepted } from '@shared/schemas/sending';

/** Where a send stands: sent off, accepted by the server (with its campaign), or refused. */
export type SendOutcome =
  | { phase: 'submitting' }
  | { phase: 'accepted'; message: string; accepted: TCampaignAccepted }
  | { phase: 'failed'; title: string; description: string };

export type AcceptedOutcome = Extract<SendOutcome, { phase: 'accepted' }>;

export interface SendFailureText {
  title: string;
  description: string;
}

export interface SubmissionState<TSnapshot> {
  /** A send is on its way and its dialog has not appeared: the form stays locked. */
  processing: boolean;
  /** What the result dialog shows. */
  outcome: SendOutcome | null;
  dialogOpen: boolean;
  /** What the form held when a send was refused after its dialog appeared (the form was reset). */
  restorable: TSnapshot | null;
}

export function initialSubmission<TSnapshot>(): SubmissionState<TSnapshot> {
  return { processing: false, outcome: null, dialogOpen: false, restorable: null };
}

/** The timer the delayed dialog uses; tests pass a clock they move by hand. */
export interface SubmissionClock {
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realClock: SubmissionClock = {
  setTimeout: (run, ms) => globalThis.setTimeout(run, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
};

export interface SubmissionOptions<TSnapshot> {
  /**
   * Show the dialog this long after confirming while the request carries on (Quick Send), and
   * keep the form if a refusal comes back before then; null shows it only once the send is
   * accepted (Customize Message).
   */
  dialogDelayMs: number | null;
  onChange: (state: SubmissionState<TSnapshot>) => void;
  clock?: SubmissionClock;
}

export interface SubmitRequest<TSnapshot> {
  /** The call itself; it resolves to what the dialog says about the accepted send. */
  send: () => Promise<AcceptedOutcome>;
  /** How a refusal is worded (toast, and the dialog when it is already open). */
  describeFailure: (caught: unknown) => SendFailureText;
  /** What the form holds now, offered back if the send is refused after the dialog appeared. */
  snapshot: TSnapshot | null;
  /** The dialog has appeared: the page resets its form. */
  onDialogShown?: () => void;
  /** Every refusal is reported, even one a later send has overtaken. */
  onFailure?: (failure: SendFailureText) => void;
  /** The answer came, either way. */
  onSettled?: () => void;
}

export interface SendSubmission<TSnapshot> {
  readonly state: SubmissionState<TSnapshot>;
  /** Starts a send; ignored (and resolved at once) while another is still processing. */
  submit(request: SubmitRequest<TSnapshot>): Promise<void>;
  setDialogOpen(open: boolean): void;
  /** The refused send's snapshot, once: the dialog closes and the offer goes. */
  takeRestorable(): TSnapshot | null;
  /** The screen is leaving: a pending dialog timer stops (an answer still reports a refusal). */
  dispose(): void;
}

export function createSendSubmission<TSnapshot>(options: SubmissionOptions<TSnapshot>): SendSubmission<TSnapshot> {
  const clock = options.clock ?? realClock;
  let state = initialSubmission<TSnapshot>();
  let latestSend = 0;
  let dialogTimer: unknown = null;

  const update = (patch: Partial<SubmissionState<TSnapshot>>) => {
    state = { ...state, ...patch };
    options.onChange(state);
  };
  const stopTimer = () => {
    if (dialogTimer !== null) clock.clearTimeout(dialogTimer);
    dialogTimer = null;
  };

  return {
    get state() {
      return state;
    },

    submit(request) {
      if (state.processing) return Promise.resolve();
      const sendId = ++latestSend;
      const isLatest = () => latestSend === sendId;
      let dialogShown = false;
      let settled: AcceptedOutcome | null = null;
      const showDialog = (outcome: SendOutcome) => {
        dialogShown = true;
        update({ outcome, dialogOpen: true, processing: false });
        request.onDialogShown?.();
      };

      update({ processing: true, restorable: null });
      if (options.dialogDelayMs !== null) {
        dialogTimer = clock.setTimeout(() => {
          dialogTimer = null;
          if (isLatest()) showDialog(settled ?? { phase: 'submitting' });
        }, options.dialogDelayMs);
      }

      return request.send().then(
        (accepted) => {
          request.onSettled?.();
          settled = accepted;
          if (!isLatest()) return;
          if (dialogShown) update({ outcome: accepted });
          else if (options.dialogDelayMs === null) showDialog(accepted);
        },
        (caught: unknown) => {
          request.onSettled?.();
          const failure = request.describeFailure(caught);
          request.onFailure?.(failure);
          if (!isLatest()) return;
          if (!dialogShown) {
            // Refused before the dialog: the form was never reset, so it simply unlocks.
            stopTimer();
            update({ processing: false });
            return;
          }
          update({ outcome: { phase: 'failed', ...failure }, restorable: request.snapshot });
        },
      );
    },

    setDialogOpen(open) {
      update({ dialogOpen: open });
    },

    takeRestorable() {
      const snapshot = state.restorable;
      if (snapshot !== null) update({ restorable: null, dialogOpen: false });
      return snapshot;
    },

    dispose: stopTimer,
  };
}
