import { Wallet } from 'lucide-react';
import { Link } from 'react-router-dom';
import { fillMessage, messages } from '@shared/messages';
import { formatIndianNumber } from '@shared/money';
import type { SendPreviewRequest } from '../../api/sending';
import { useCostPreview } from '../../hooks/useSending';
import { formatIstLabel } from '../../lib/sending/schedule';
import { estimateCost, formatCost, formatPrice, templateCategoryLabel } from '../../lib/sending/setup';
import { Alert } from '../ui/alert';
import { Button } from '../ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../ui/dialog';
import { Spinner } from '../ui/spinner';
import { CostRow } from './CostRow';
import { NormalisedNumbers } from './NormalisedNumbers';
import { SkippedRowsList } from './SkippedRowsList';
import { WhatsAppText } from '../templates/WhatsAppText';

const ui = messages.sendScreens;

export interface CostEstimate {
  recipients: number;
  category: string;
  pricePerMessage: number;
}

export interface FirstRecipientPreview {
  recipient: string;
  text: string;
}

/**
 * The cost confirmation before a send (spec 002 "Cost preview"): the server's preview for this
 * exact send (price, Duplicate Blocked, balance), or the local estimate while it loads or when it
 * cannot be had. An insufficient balance is said plainly, with the way to the wallet.
 */
export function CostPreviewDialog({
  open,
  onOpenChange,
  request,
  estimate,
  firstRecipient,
  normalised,
  title,
  confirmLabel,
  cancelLabel,
  onConfirm,
  isSending,
  scheduledAt = null,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  request: SendPreviewRequest | null;
  estimate: CostEstimate;
  firstRecipient: FirstRecipientPreview | null;
  /** Numbers the phone rule changed, shown before paying (quick send). */
  normalised?: { items: readonly { typed: string; phone: string }[]; total: number } | undefined;
  title: string;
  confirmLabel: string;
  cancelLabel: string;
  onConfirm: () => void;
  isSending: boolean;
  /** A scheduled send's time (ISO): said plainly, since the cost is reserved now. */
  scheduledAt?: string | null;
}) {
  const query = useCostPreview(request, open);
  const preview = query.data;
  const recipients = preview?.recipients ?? estimate.recipients;
  const price = preview?.pricePerMessage ?? estimate.pricePerMessage;
  const billable = preview?.billable ?? estimate.recipients;
  const total = preview?.totalCost ?? estimateCost(estimate.recipients, estimate.pricePerMessage);
  const insufficient = preview !== undefined && !preview.sufficient;
  // Said only when the server could not screen every recipient.
  const atMost = preview?.exact === false ? `${messages.sending.atMost} ` : '';
  // Repeats within this list are not Duplicate Blocked (nothing was sent before): each has its own line.
  const repeats = preview?.repeats ?? 0;
  const blocked = Math.max(0, (preview?.duplicates ?? 0) - repeats);

  return (
    <Dialog open={open} onOpenChange={(next) => (isSending ? undefined : onOpenChange(next))}>
      <DialogContent className="max-w-xl" hideClose={isSending}>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>Check the cost before the messages go out. Failed messages are refunded.</DialogDescription>
        </DialogHeader>

        {scheduledAt ? (
          <Alert tone="info" data-testid="cost-schedule">
            {fillMessage(ui.scheduledFor, { time: formatIstLabel(scheduledAt) })}
          </Alert>
        ) : null}

        <dl className="divide-y divide-slate-200 rounded-lg border border-slate-200 px-4 dark:divide-slate-800 dark:border-slate-800" data-testid="cost-summary">
          <CostRow label="Recipients">{formatIndianNumber(recipients)}</CostRow>
          <CostRow label="Template type">{templateCategoryLabel(preview?.category ?? estimate.category)}</CostRow>
          <CostRow label="Per-message price">{formatPrice(price)}</CostRow>
          <CostRow label="Total cost" strong>
            <span data-testid="cost-total">
              {atMost}
              {formatCost(total)}
            </span>
          </CostRow>
        </dl>

        <section aria-label="Cost breakdown" className="flex flex-col gap-1 text-sm">
          <h3 className="font-medium">Breakdown</h3>
          {query.isPending && open ? (
            <p className="flex items-center gap-2 text-slate-500 dark:text-slate-400">
              <Spinner label="Checking the cost" /> Checking the exact cost...
            </p>
          ) : null}
          <ul className="flex flex-col gap-1 text-slate-600 dark:text-slate-300">
            <li data-testid="cost-breakdown">
              {atMost}
              {formatIndianNumber(billable)} × {formatPrice(price)} = <span className="font-medium">{formatCost(total)}</span>
            </li>
            {preview && repeats > 0 ? <li data-testid="cost-repeats">{fillMessage(messages.sending.repeatsInList, { count: formatIndianNumber(repeats) })}</li> : null}
            {preview && blocked > 0 ? <li>{fillMessage(messages.sending.duplicateBlockedRecent, { count: formatIndianNumber(blocked) })}</li> : null}
            {preview && preview.invalid > 0 ? <li>{fillMessage(messages.counts.invalidOrIncompleteSkipped, { count: formatIndianNumber(preview.invalid) })}</li> : null}
            {preview && (preview.suppressed ?? 0) > 0 ? <li>{formatIndianNumber(preview.suppressed ?? 0)} opted out (not sent, not charged)</li> : null}
            {preview ? (
              <li>
                Balance {formatCost(preview.balance)} → after sending {formatCost(preview.balanceAfter)}
              </li>
            ) : null}
          </ul>
          {query.isError ? <Alert tone="info">{ui.costUnavailable}</Alert> : null}
        </section>

        {insufficient && preview ? (
          <Alert tone="error">
            <p className="font-medium">
              {fillMessage(messages.sending.insufficientBalance, {
                cost: formatIndianNumber(preview.totalCost, 2),
                balance: formatIndianNumber(preview.balance, 2),
              })}
            </p>
            <Button asChild size="sm" variant="outline" className="mt-2">
              <Link to="/user/wallet">
                <Wallet aria-hidden="true" />
                {ui.topUpWallet}
              </Link>
            </Button>
          </Alert>
        ) : null}

        {preview?.warnings && preview.warnings.length > 0 ? (
          <Alert tone="warning" data-testid="cost-preview-warnings">
            <div className="flex flex-col gap-1">
              <p className="font-medium">{messages.numberHealth.warningsTitle}</p>
              <ul className="list-disc pl-4">
                {preview.warnings.map((warning) => (
                  <li key={warning.code}>{warning.message}</li>
                ))}
              </ul>
            </div>
          </Alert>
        ) : null}

        {preview ? <SkippedRowsList rows={preview.skippedRows ?? []} total={preview.skippedCount} /> : null}

        {normalised ? <NormalisedNumbers items={normalised.items} total={normalised.total} /> : null}

        {firstRecipient ? (
          <section aria-label="First recipient preview" className="flex flex-col gap-2">
            <h3 className="text-sm font-medium">
              First recipient: <span className="font-mono">{firstRecipient.recipient}</span>
            </h3>
            <p className="max-h-40 overflow-y-auto rounded-lg bg-[#efeae2] p-3 text-sm whitespace-pre-wrap break-words text-[#111b21] dark:bg-[#0b141a] dark:text-[#e9edef]">
              {firstRecipient.text ? <WhatsAppText text={firstRecipient.text} /> : '—'}
            </p>
          </section>
        ) : null}

        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={isSending}>
            {cancelLabel}
          </Button>
          <Button onClick={onConfirm} disabled={isSending || insufficient || (query.isPending && open)}>
            {isSending ? <Spinner className="text-current" /> : null}
            {confirmLabel}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
