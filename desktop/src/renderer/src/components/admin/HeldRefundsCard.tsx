import { HandCoins, Undo2 } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { fillMessage, messages } from '@shared/messages';
import { formatIndianNumber, formatRupees } from '@shared/money';
import type { THeldRefund } from '@shared/schemas/admin';
import { errorText } from '../../api/client';
import { formatDateTime } from '../../lib/dates';
import { Button } from '../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { SimpleTable } from '../ui/simple-table';
import { Spinner } from '../ui/spinner';
import type { AdminUserView } from './AdminUserPage';
import { ErrorCard } from './ErrorCard';
import { useHeldRefunds, useReleaseHeldRefunds } from '../../hooks/useAdminUser';

const w = messages.adminWallet;

/** A message's price to the paisa, or to the hundredth of a paisa when it has one (₹0.7875). */
function messagePrice(amount: number): string {
  const paise = Math.round(amount * 10_000) / 100;
  return formatRupees(amount, Number.isInteger(paise) ? 2 : 4);
}

function failureReason(message: THeldRefund): string {
  if (message.errorCode !== null && message.errorMessage) return `${message.errorCode}: ${message.errorMessage}`;
  return message.errorMessage ?? (message.errorCode !== null ? String(message.errorCode) : '—');
}

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="rounded-lg bg-amber-50 p-4 dark:bg-amber-500/10">
      <dt className="text-xs text-slate-600 dark:text-slate-300">{label}</dt>
      <dd className="text-2xl font-bold tabular-nums text-slate-900 dark:text-white" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

/**
 * Refunds held for an administrator: failures reported only under the customer's own
 * app secret, charged and not refunded. Lists them with why they failed and releases them all
 * after a confirmation that names the amount.
 */
export function HeldRefundsCard({ user, onReleased }: { user: AdminUserView; onReleased?: (creditBalance: number) => void }) {
  const held = useHeldRefunds(user.id);
  const release = useReleaseHeldRefunds(user.id);
  const [confirming, setConfirming] = useState(false);
  const data = held.data;
  const total = data ? formatRupees(data.amount) : '';

  const handleRelease = async () => {
    try {
      const answer = await release.mutateAsync();
      toast.success(answer.message);
      onReleased?.(answer.creditBalance);
    } catch (caught) {
      toast.error(errorText(caught, w.releaseHeldFailed, messages.common.failedToConnect));
    } finally {
      setConfirming(false);
    }
  };

  if (held.error) {
    return (
      <ErrorCard
        title={w.heldRefundsLoadFailed}
        detail={errorText(held.error, w.heldRefundsLoadFailed)}
        onRetry={() => void held.refetch()}
        isRetrying={held.isFetching}
      />
    );
  }

  return (
    <Card role="region" aria-labelledby="held-refunds-title" data-testid="held-refunds">
      <CardHeader className="gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div>
          <CardTitle id="held-refunds-title" className="flex items-center gap-2">
            <HandCoins className="size-5 text-amber-600 dark:text-amber-400" aria-hidden="true" />
            {w.heldRefundsTitle}
          </CardTitle>
          <CardDescription className="mt-1 max-w-3xl">{w.heldRefundsWhy}</CardDescription>
        </div>
        {data && data.count > 0 ? (
          <Button onClick={() => setConfirming(true)} disabled={release.isPending} className="shrink-0">
            <Undo2 aria-hidden="true" />
            {fillMessage(w.releaseHeldRefunds, { amount: total })}
          </Button>
        ) : null}
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {!data ? (
          <div className="flex justify-center py-6">
            <Spinner className="size-5" label={messages.common.loading} />
          </div>
        ) : data.count === 0 ? (
          <p className="rounded-lg border border-dashed border-slate-200 p-6 text-center text-sm text-slate-500 dark:border-slate-800 dark:text-slate-400" data-testid="held-refunds-empty">
            {w.heldRefundsNone}
          </p>
        ) : (
          <>
            <dl className="grid gap-3 sm:grid-cols-2">
              <Figure label="Held messages" value={formatIndianNumber(data.count)} testId="held-refunds-count" />
              <Figure label="Held amount" value={total} testId="held-refunds-amount" />
            </dl>
            <SimpleTable
              label={w.heldRefundsTitle}
              head={['Campaign', 'Recipient', 'Amount', 'Failed at', 'Reason reported']}
              rows={data.messages.map((message) => [
                message.campaignName,
                <span key="recipient" className="tabular-nums">
                  {message.recipient}
                </span>,
                <span key="amount" className="tabular-nums">
                  {messagePrice(message.amount)}
                </span>,
                formatDateTime(message.failedAt),
                failureReason(message),
              ])}
            />
            {data.messages.length < data.count ? (
              <p className="text-xs text-slate-500 dark:text-slate-400">
                {fillMessage(w.heldRefundsShowing, { shown: formatIndianNumber(data.messages.length), count: formatIndianNumber(data.count) })}
              </p>
            ) : null}
          </>
        )}
      </CardContent>
      <ConfirmDialog
        open={confirming}
        title={fillMessage(w.releaseHeldConfirmTitle, { amount: total, username: user.username })}
        description={fillMessage(w.releaseHeldConfirmBody, { count: formatIndianNumber(data?.count ?? 0), amount: total })}
        confirmLabel={fillMessage(w.releaseHeldRefunds, { amount: total })}
        busy={release.isPending}
        onConfirm={() => void handleRelease()}
        onClose={() => setConfirming(false)}
      />
    </Card>
  );
}
