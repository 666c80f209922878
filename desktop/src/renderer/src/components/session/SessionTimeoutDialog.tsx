import * as DialogPrimitive from '@radix-ui/react-dialog';
import { Clock } from 'lucide-react';
import { fillMessage, messages } from '@shared/messages';
import { formatCountdown } from '../../lib/inactivity';
import { Button } from '../ui/button';
import { contentClass, overlayClass } from '../ui/dialog';
import { cn } from '../../lib/cn';

const s = messages.session;

interface SessionTimeoutDialogProps {
  /** Seconds until the automatic logout; null hides the dialog. */
  remainingSeconds: number | null;
  onStay: () => void;
  onLogout: () => void;
}

/** Spec 000 §4.2 and §8: the countdown before an inactivity logout. */
export function SessionTimeoutDialog({ remainingSeconds, onStay, onLogout }: SessionTimeoutDialogProps) {
  const open = remainingSeconds !== null;
  const time = formatCountdown(remainingSeconds ?? 0);
  return (
    <DialogPrimitive.Root open={open}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className={overlayClass} />
        <DialogPrimitive.Content
          className={cn(contentClass, 'max-w-md')}
          onPointerDownOutside={(event) => {
            event.preventDefault();
            onLogout();
          }}
          // Escape must not silently keep or end the session: the user chooses with the buttons.
          onEscapeKeyDown={(event) => event.preventDefault()}
        >
          <div className="flex items-start gap-3">
            <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-amber-100 text-amber-700 dark:bg-amber-500/15 dark:text-amber-300">
              <Clock className="size-5" aria-hidden="true" />
            </span>
            <div className="flex flex-col gap-1">
              <DialogPrimitive.Title className="text-lg font-semibold">{s.warningTitle}</DialogPrimitive.Title>
              <DialogPrimitive.Description className="text-sm text-slate-500 dark:text-slate-400">
                {s.warningSubtitle}
              </DialogPrimitive.Description>
            </div>
          </div>
          <div className="rounded-lg bg-slate-50 p-4 text-center dark:bg-slate-800/60">
            <p className="text-xs font-medium tracking-wide text-slate-500 dark:text-slate-400">
              {s.timeRemaining}
            </p>
            <p className="mt-1 font-mono text-4xl font-bold tabular-nums text-amber-600 dark:text-amber-400" aria-live="off">
              {time}
            </p>
          </div>
          <p className="text-sm text-slate-700 dark:text-slate-200">{fillMessage(s.warningCountdown, { time })}</p>
          <p className="text-sm text-slate-500 dark:text-slate-400">{s.warningHint}</p>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="outline" onClick={onLogout}>
              {s.logoutNow}
            </Button>
            <Button onClick={onStay} autoFocus>
              {s.stayLoggedIn}
            </Button>
          </div>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
