import { describe, expect, it } from 'vitest';
import type { TCampaignAccepted } from '@shared/schemas/sending';
import { createSendSubmission, type AcceptedOutcome, type SendFailureText, type SubmissionClock, type SubmitRequest } from './submission';

/** A clock moved by hand: timers run only when the test advances it past them. */
function manualClock() {
  let now = 0;
  let nextId = 1;
  const timers = new Map<number, { at: number; run: () => void }>();
  const clock: SubmissionClock = {
    setTimeout(run, ms) {
      const id = nextId++;
      timers.set(id, { at: now + ms, run });
      return id;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
  };
  return {
    clock,
    advance(ms: number) {
      now += ms;
      for (const [id, timer] of [...timers]) {
        if (timer.at > now) continue;
        timers.delete(id);
        timer.run();
      }
    },
    pending: () => timers.size,
  };
}

function deferred<T>() {
  let resolve: (value: T) => void = () => undefined;
  let reject: (reason: unknown) => void = () => undefined;
  const promise = new Promise<T>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

function accepted(campaignId: number): AcceptedOutcome {
  const data: TCampaignAccepted = { campaignId, accepted: 2, duplicates: 0, invalid: 0, suppressed: 0, totalCost: 1.6 };
  return { phase: 'accepted', message: `Campaign ${campaignId} accepted`, accepted: data };
}

interface Form {
  recipients: string;
}

/** One screen's submission with everything it reports recorded. */
function screen(dialogDelayMs: number | null) {
  const time = manualClock();
  const submission = createSendSubmission<Form>({ dialogDelayMs, clock: time.clock, onChange: () => undefined });
  const events: string[] = [];
  const failures: SendFailureText[] = [];
  const start = (name: string, snapshot: Form | null = { recipients: name }) => {
    const answer = deferred<AcceptedOutcome>();
    const request: SubmitRequest<Form> = {
      send: () => answer.promise,
      describeFailure: (caught) => ({ title: 'Sending failed', description: caught instanceof Error ? caught.message : String(caught) }),
      snapshot,
      onDialogShown: () => events.push(`${name}: form reset`),
      onFailure: (failure) => failures.push(failure),
      onSettled: () => events.push(`${name}: settled`),
    };
    const done = submission.submit(request);
    return { answer, done };
  };
  return { submission, time, events, failures, start };
}

const SECOND = 1_000;

describe('send submission with a delayed dialog (Quick Send)', () => {
  it('locks the form, then shows the dialog after the delay while the request carries on, and fills in the outcome', async () => {
    const { submission, time, events, start } = screen(SECOND);
    const send = start('first');
    expect(submission.state).toMatchObject({ processing: true, dialogOpen: false, outcome: null });

    time.advance(SECOND - 1);
    expect(submission.state.dialogOpen).toBe(false);
    time.advance(1);
    expect(submission.state).toMatchObject({ processing: false, dialogOpen: true, outcome: { phase: 'submitting' } });
    expect(events).toEqual(['first: form reset']);

    send.answer.resolve(accepted(7));
    await send.done;
    expect(submission.state.outcome).toEqual(accepted(7));
    expect(submission.state.restorable).toBeNull();
  });

  it('opens the dialog on the accepted outcome when the answer beat the delay', async () => {
    const { submission, time, start } = screen(SECOND);
    const send = start('first');
    send.answer.resolve(accepted(8));
    await send.done;
    expect(submission.state).toMatchObject({ processing: true, dialogOpen: false });
    time.advance(SECOND);
    expect(submission.state).toMatchObject({ processing: false, dialogOpen: true, outcome: accepted(8) });
  });

  it('keeps the form when the send is refused before the dialog: a toast, no dialog, no reset', async () => {
    const { submission, time, events, failures, start } = screen(SECOND);
    const send = start('first');
    send.answer.reject(new Error('Insufficient balance'));
    await send.done;
    expect(failures).toEqual([{ title: 'Sending failed', description: 'Insufficient balance' }]);
    expect(submission.state).toMatchObject({ processing: false, dialogOpen: false, outcome: null, restorable: null });
    expect(time.pending()).toBe(0);
    time.advance(SECOND);
    expect(submission.state.dialogOpen).toBe(false);
    expect(events).toEqual(['first: settled']);
  });

  it('turns the open dialog into the failure and offers the form back once', async () => {
    const { submission, time, failures, start } = screen(SECOND);
    const send = start('first');
    time.advance(SECOND);
    send.answer.reject(new Error('Template paused'));
    await send.done;
    expect(failures).toHaveLength(1);
    expect(submission.state).toMatchObject({
      dialogOpen: true,
      outcome: { phase: 'failed', title: 'Sending failed', description: 'Template paused' },
      restorable: { recipients: 'first' },
    });
    expect(submission.takeRestorable()).toEqual({ recipients: 'first' });
    expect(submission.state).toMatchObject({ dialogOpen: false, restorable: null });
    expect(submission.takeRestorable()).toBeNull();
  });

  it('ignores a second confirm while the first send is still processing', async () => {
    const { submission, time, events, start } = screen(SECOND);
    const first = start('first');
    const second = start('second');
    await second.done;
    time.advance(SECOND);
    expect(events).toEqual(['first: form reset']);
    first.answer.resolve(accepted(1));
    await first.done;
    expect(submission.state.outcome).toEqual(accepted(1));
  });

  it('lets only the latest send change the dialog; an overtaken refusal is still reported', async () => {
    const { submission, time, failures, start } = screen(SECOND);
    const first = start('first');
    time.advance(SECOND);
    const second = start('second');
    time.advance(SECOND);
    second.answer.resolve(accepted(2));
    await second.done;

    first.answer.reject(new Error('Late refusal'));
    await first.done;
    expect(failures).toEqual([{ title: 'Sending failed', description: 'Late refusal' }]);
    expect(submission.state).toMatchObject({ outcome: accepted(2), restorable: null, dialogOpen: true });
  });

  it('does not let an overtaken acceptance replace the latest outcome', async () => {
    const { submission, time, start } = screen(SECOND);
    const first = start('first');
    time.advance(SECOND);
    const second = start('second');
    time.advance(SECOND);
    first.answer.resolve(accepted(1));
    await first.done;
    expect(submission.state.outcome).toEqual({ phase: 'submitting' });
    second.answer.resolve(accepted(2));
    await second.done;
    expect(submission.state.outcome).toEqual(accepted(2));
  });

  it('stops the pending dialog when the screen leaves', async () => {
    const { submission, time, events, start } = screen(SECOND);
    const send = start('first');
    submission.dispose();
    time.advance(SECOND);
    expect(submission.state.dialogOpen).toBe(false);
    expect(events).toEqual([]);
    send.answer.resolve(accepted(3));
    await send.done;
    expect(submission.state.dialogOpen).toBe(false);
  });
});

describe('send submission without a delay (Customize Message)', () => {
  it('keeps the form locked until the send is accepted, then opens the dialog and resets the form', async () => {
    const { submission, time, events, start } = screen(null);
    const send = start('sheet', null);
    time.advance(10 * SECOND);
    expect(submission.state).toMatchObject({ processing: true, dialogOpen: false });
    send.answer.resolve(accepted(9));
    await send.done;
    expect(submission.state).toMatchObject({ processing: false, dialogOpen: true, outcome: accepted(9) });
    expect(events).toEqual(['sheet: settled', 'sheet: form reset']);
  });

  it('unlocks the form with a toast and no dialog when the send is refused', async () => {
    const { submission, events, failures, start } = screen(null);
    const send = start('sheet', null);
    send.answer.reject(new Error('Bulk sending failed'));
    await send.done;
    expect(failures).toHaveLength(1);
    expect(submission.state).toMatchObject({ processing: false, dialogOpen: false, outcome: null, restorable: null });
    expect(events).toEqual(['sheet: settled']);
  });
});
