import { Wallet } from 'lucide-react';
import { Link } from 'react-router-dom';
import { fillMessage, messages } from '@shared/messages';
import { formatIndianNumber } from '@shared/money';
import type { TCampaign } from '@shared/schemas/sending';
import { errorText } from '../../api/client';
import { useResendPreview } from '../../hooks/useCampaigns';
import { formatCost, formatPrice, templateCategoryLabel } from '../../lib/sending/setup';
import { Alert } from '../ui/alert';
import { Button } from '../ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../ui/dialog';
import { Spinner } from '../ui/spinner';
import { CostRow } from '../sending/CostRow';

const r = messages.reportsScreen;

/**
 * Resend to failed: the server prices the resend first (`confirm: false`: nothing is charged),
 * the dialog shows that cost and the balance after it, and only the user's confirmation sends.
 * The preview comes from the campaign endpoint, not the send screens' cost preview, so this does
 * not reuse their dialog.
 */
export function ResendFailedDialog({
  campaign,
  onClose,
  onConfirm,
  isSending,
}: {
  /** The campaign whose failures would go again; null when closed. */
  campaign: TCampaign | null;
  onClose: () => void;
  onConfirm: () => void;
  isSending: boolean;
}) {
  const query = useResendPreview(campaign?.id ?? null);
  const preview = query.data;
  const insufficient = preview !== undefined && !preview.sufficient;
  const nothingToSend = preview !== undefined && preview.billable === 0;
  const category = preview?.category ?? campaign?.category ?? '';

  return (
    <Dialog open={campaign !== null} onOpenChange={(next) => (!next && !isSending ? onClose() : undefined)}>
      <DialogContent className="max-w-lg" hideClose={isSending} data-testid="resend-dialog">
        <DialogHeader>
          <DialogTitle>{r.resendTitle}</DialogTitle>
          <DialogDescription>
            <span className="block font-medium text-slate-700 dark:text-slate-200">{campaign?.name}</span>
            <span className="mt-1 block">{r.resendBody}</span>
          </DialogDescription>
        </DialogHeader>

        {query.isPending ? (
          <p className="flex items-center gap-2 text-sm text-slate-500 dark:text-slate-400">
            <Spinner label="Checking the cost" /> Checking the cost...
          </p>
        ) : query.isError ? (
          <Alert tone="error">{errorText(query.error, r.resendPreviewFailed)}</Alert>
        ) : preview ? (
          <>
            <dl
              className="divide-y divide-slate-200 rounded-lg border border-slate-200 px-4 dark:divide-slate-800 dark:border-slate-800"
              data-testid="resend-cost"
            >
              <CostRow label="Failed messages">{formatIndianNumber(preview.recipients)}</CostRow>
              <CostRow label="Template type">{templateCategoryLabel(category)}</CostRow>
              <CostRow label="Per-message price">{formatPrice(preview.pricePerMessage)}</CostRow>
              <CostRow label="Total cost" strong>
                {formatCost(preview.totalCost)}
              </CostRow>
            </dl>
            <ul className="flex flex-col gap-1 text-sm text-slate-600 dark:text-slate-300">
              <li>
                {formatIndianNumber(preview.billable)} × {formatPrice(preview.pricePerMessage)} ={' '}
                <span className="font-medium">{formatCost(preview.totalCost)}</span>
              </li>
              {preview.duplicates > 0 ? (
                <li>
                  {formatIndianNumber(preview.duplicates)} {messages.sending.duplicateBlocked.toLowerCase()} (sent in the last 24 hours, not charged)
                </li>
              ) : null}
              {preview.invalid > 0 ? <li>{fillMessage(messages.counts.numbersSkipped, { count: formatIndianNumber(preview.invalid) })}</li> : null}
              <li>
                Balance {formatCost(preview.balance)} → after resending {formatCost(preview.balanceAfter)}
              </li>
            </ul>
            {insufficient ? (
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
                    {messages.sendScreens.topUpWallet}
                  </Link>
                </Button>
              </Alert>
            ) : null}
          </>
        ) : null}

        <DialogFooter>
          <Button variant="outline" onClick={onClose} disabled={isSending}>
            Cancel
          </Button>
          <Button onClick={onConfirm} disabled={isSending || !preview || insufficient || nothingToSend}>
            {isSending ? <Spinner className="text-current" /> : null}
            {preview ? `Resend for ${formatCost(preview.totalCost)}` : 'Resend'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
