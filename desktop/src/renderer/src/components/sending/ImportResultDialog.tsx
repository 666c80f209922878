import { FileCheck2 } from 'lucide-react';
import { messages } from '@shared/messages';
import { formatIndianNumber } from '@shared/money';
import type { TRecipientImport } from '../../api/sending';
import { Button } from '../ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../ui/dialog';

/** Quick Send's import result (spec 002: numbers parsed, invalid skipped, Continue). */
export function ImportResultDialog({
  result,
  fileName,
  onContinue,
}: {
  result: TRecipientImport | null;
  fileName: string;
  /** Adds the numbers to the list and closes. */
  onContinue: () => void;
}) {
  return (
    <Dialog open={result !== null} onOpenChange={(open) => (open ? undefined : onContinue())}>
      <DialogContent className="max-w-md" data-testid="import-result-dialog">
        <DialogHeader>
          <DialogTitle className="flex items-center gap-2">
            <FileCheck2 className="size-5 text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
            {messages.sendScreens.importedTitle}
          </DialogTitle>
          <DialogDescription className="break-all">{fileName}</DialogDescription>
        </DialogHeader>
        {result ? (
          <dl className="grid grid-cols-2 gap-3">
            <div className="rounded-lg border border-emerald-200 bg-emerald-50 p-3 dark:border-emerald-500/30 dark:bg-emerald-500/10">
              <dt className="text-xs text-emerald-800 dark:text-emerald-300">Numbers parsed</dt>
              <dd className="text-2xl font-semibold tabular-nums text-emerald-900 dark:text-emerald-200" data-testid="import-valid-count">
                {formatIndianNumber(result.valid_count)}
              </dd>
            </div>
            <div className="rounded-lg border border-slate-200 p-3 dark:border-slate-800">
              <dt className="text-xs text-slate-500 dark:text-slate-400">Invalid skipped</dt>
              <dd className="text-2xl font-semibold tabular-nums" data-testid="import-invalid-count">
                {formatIndianNumber(result.invalid_count)}
              </dd>
            </div>
          </dl>
        ) : null}
        <p className="text-sm text-slate-500 dark:text-slate-400">The numbers are added to your recipient list; numbers already in it are not repeated.</p>
        <DialogFooter>
          <Button onClick={onContinue} autoFocus>
            Continue
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
