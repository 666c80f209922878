import { MinusCircle, PlusCircle, Wallet } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import { Controller, useWatch } from 'react-hook-form';
import { toast } from 'sonner';
import type { z } from 'zod';
import { messages } from '@shared/messages';
import { formatIndianNumber, formatRupees } from '@shared/money';
import { ZCreditAdjustmentRequest } from '@shared/schemas/admin';
import { errorText, serverFieldErrors } from '../../api/client';
import { AdminUserPage, type AdminUserView } from '../../components/admin/AdminUserPage';
import { TaxDocumentsCard } from '../../components/wallet/TaxDocumentsCard';
import { userTaxDocuments } from '../../api/invoices';
import { useAdjustCredits } from '../../hooks/useAdminUser';
import { Alert } from '../../components/ui/alert';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { FormAmountField, FormTextField } from '../../components/form/fields';
import { showServerFieldErrors, textReadInto, useSchemaForm } from '../../components/form/useSchemaForm';
import { Spinner } from '../../components/ui/spinner';
import { cn } from '../../lib/cn';
import {
  ADMIN_QUICK_AMOUNTS,
  parseAdjustmentAmount,
  previewAdjustment,
  type CreditAdjustmentMode,
} from '../../lib/creditAdjustment';
import { formatDay } from '../../lib/dates';

const w = messages.adminWallet;

const modes: ReadonlyArray<{ value: CreditAdjustmentMode; label: string; icon: typeof PlusCircle }> = [
  { value: 'add', label: 'Add Credits', icon: PlusCircle },
  { value: 'deduct', label: 'Deduct Credits', icon: MinusCircle },
];

function InfoRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex items-center justify-between gap-4 py-2.5 text-sm">
      <dt className="text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className="min-w-0 truncate text-right font-medium text-slate-900 dark:text-white">{children}</dd>
    </div>
  );
}

function UserCard({ user }: { user: AdminUserView }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Account</CardTitle>
        <CardDescription>@{user.username}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <div className="flex items-center gap-3 rounded-lg bg-emerald-50 p-4 dark:bg-emerald-500/10">
          <Wallet className="size-5 text-emerald-700 dark:text-emerald-300" aria-hidden="true" />
          <div>
            <p className="text-xs text-slate-600 dark:text-slate-300">Current Credits</p>
            <p className="text-2xl font-bold tabular-nums" data-testid="wallet-balance">
              {formatRupees(user.creditBalance)}
            </p>
          </div>
        </div>
        <dl className="divide-y divide-slate-100 dark:divide-slate-800">
          <InfoRow label="Name">{user.name}</InfoRow>
          <InfoRow label="Email">{user.email}</InfoRow>
          <InfoRow label="User ID">{user.id}</InfoRow>
          <InfoRow label="Role">
            <Badge variant={user.role === 'admin' ? 'info' : 'secondary'}>{user.role === 'admin' ? 'Admin' : 'User'}</Badge>
          </InfoRow>
          <InfoRow label="Joined">{formatDay(user.createdAt)}</InfoRow>
        </dl>
      </CardContent>
    </Card>
  );
}

/** Add or deduct as a pair of radio buttons styled as one switch: arrow keys move between them. */
function ModePicker({
  mode,
  disabled,
  onChange,
}: {
  mode: CreditAdjustmentMode;
  disabled: boolean;
  onChange: (mode: CreditAdjustmentMode) => void;
}) {
  return (
    <fieldset className="flex flex-col gap-1.5" disabled={disabled}>
      <legend className="mb-1.5 text-sm font-medium text-slate-700 dark:text-slate-200">Adjustment</legend>
      <div className="grid grid-cols-2 gap-1 rounded-lg bg-slate-100 p-1 dark:bg-slate-800">
        {modes.map(({ value, label, icon: Icon }) => (
          <label
            key={value}
            className={cn(
              'flex cursor-pointer items-center justify-center gap-2 rounded-md px-3 py-2 text-sm font-medium text-slate-600 transition-colors dark:text-slate-300',
              'hover:text-slate-900 dark:hover:text-white',
              'has-[:checked]:bg-white has-[:checked]:text-slate-900 has-[:checked]:shadow-sm',
              'dark:has-[:checked]:bg-slate-950 dark:has-[:checked]:text-white',
              'has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-emerald-500',
            )}
          >
            <input
              type="radio"
              name="adjustment-mode"
              value={value}
              checked={mode === value}
              onChange={() => onChange(value)}
              className="sr-only"
            />
            <Icon
              className={cn('size-4', value === 'add' ? 'text-emerald-600 dark:text-emerald-400' : 'text-red-600 dark:text-red-400')}
              aria-hidden="true"
            />
            {label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** The amount is typed text ("1,000.50"); an unreadable one goes in as 0 for the spec's message. */
const ZAdjustmentForm = ZCreditAdjustmentRequest.extend({
  amount: textReadInto(ZCreditAdjustmentRequest.shape.amount, (text) => parseAdjustmentAmount(text) ?? 0),
});

const emptyForm: z.input<typeof ZAdjustmentForm> = { mode: 'deduct', amount: '', reason: '' };

function AdjustmentCard({ user }: { user: AdminUserView }) {
  const adjust = useAdjustCredits(user.id);
  const form = useSchemaForm(ZAdjustmentForm, emptyForm);
  const [mode, amountText] = useWatch({ control: form.control, name: ['mode', 'amount'] });
  const [error, setError] = useState('');
  const busy = adjust.isPending;
  const amount = parseAdjustmentAmount(amountText);
  const preview = amount === null ? null : previewAdjustment(user.creditBalance, mode, amount);

  // Any edit takes the last failure's alert away, as the field's own message goes.
  const { subscribe } = form;
  useEffect(() => subscribe({ formState: { values: true }, callback: ({ type }) => type && setError('') }), [subscribe]);

  const handleQuickAmount = (quick: number) => {
    form.setValue('amount', String(quick), { shouldDirty: true });
    form.clearErrors('amount');
    setError('');
  };

  const handleAdjust = async (adjustment: z.output<typeof ZAdjustmentForm>) => {
    setError('');
    try {
      const response = await adjust.mutateAsync(adjustment);
      toast.success(response.message || (adjustment.mode === 'add' ? w.credited : w.debited));
      form.reset({ ...emptyForm, mode: adjustment.mode });
    } catch (caught) {
      const text = errorText(caught, w.updateFailed);
      setError(text);
      showServerFieldErrors(form, serverFieldErrors(caught));
      toast.error(text);
    }
  };

  const isAdd = mode === 'add';

  return (
    <Card className="lg:col-span-2">
      <CardHeader>
        <CardTitle>Adjust Credits</CardTitle>
        <CardDescription>
          One credit is ₹1. A deduction never takes the balance below ₹0.00. Every adjustment is recorded with its
          reason.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form
          noValidate
          onSubmit={(event) => void form.handleSubmit(handleAdjust)(event)}
          className="flex flex-col gap-5"
          aria-label="Adjust credits"
        >
          {error ? <Alert tone="error">{error}</Alert> : null}
          <Controller
            control={form.control}
            name="mode"
            render={({ field, fieldState }) => (
              <>
                {fieldState.error ? <Alert tone="error">{fieldState.error.message}</Alert> : null}
                <ModePicker mode={field.value} disabled={busy} onChange={field.onChange} />
              </>
            )}
          />
          <div className="flex flex-col gap-2">
            <FormAmountField
              control={form.control}
              name="amount"
              id="wallet-amount"
              label="Amount (₹)"
              paise
              placeholder="0.00"
              hint="Greater than 0, up to 2 decimal places."
              disabled={busy}
            />
            <div className="flex flex-wrap gap-2" role="group" aria-label="Quick amounts">
              {ADMIN_QUICK_AMOUNTS.map((quick) => (
                <Button
                  key={quick}
                  variant="outline"
                  size="sm"
                  disabled={busy}
                  aria-pressed={amount === quick}
                  className="aria-pressed:border-emerald-500 aria-pressed:text-emerald-700 dark:aria-pressed:text-emerald-300"
                  onClick={() => handleQuickAmount(quick)}
                >
                  ₹{formatIndianNumber(quick)}
                </Button>
              ))}
            </div>
          </div>
          <FormTextField
            control={form.control}
            name="reason"
            id="wallet-reason"
            label="Reason"
            autoComplete="off"
            maxLength={200}
            placeholder={isAdd ? 'e.g. Bank transfer received, ref. 2231' : 'e.g. Correction of a duplicate top-up'}
            hint={isAdd ? undefined : messages.invoices.refundHint}
            disabled={busy}
          />

          <div
            className="rounded-lg border border-slate-200 bg-slate-50 p-4 text-sm dark:border-slate-800 dark:bg-slate-800/40"
            aria-live="polite"
          >
            <dl className="flex flex-col gap-1.5">
              <div className="flex justify-between gap-4">
                <dt className="text-slate-500 dark:text-slate-400">Current balance</dt>
                <dd className="tabular-nums">{formatRupees(user.creditBalance)}</dd>
              </div>
              <div className="flex justify-between gap-4">
                <dt className="text-slate-500 dark:text-slate-400">{isAdd ? 'Add' : 'Deduct'}</dt>
                <dd className={cn('tabular-nums', isAdd ? 'text-emerald-700 dark:text-emerald-400' : 'text-red-600 dark:text-red-400')}>
                  {preview ? `${isAdd ? '+' : '−'}${formatRupees(preview.moved)}` : '—'}
                </dd>
              </div>
              <div className="flex justify-between gap-4 border-t border-slate-200 pt-1.5 font-semibold dark:border-slate-700">
                <dt>New balance</dt>
                <dd className="tabular-nums" data-testid="wallet-new-balance">
                  {preview ? formatRupees(preview.newBalance) : '—'}
                </dd>
              </div>
            </dl>
            {!isAdd && user.creditBalance <= 0 ? (
              <p className="mt-2 text-xs text-amber-700 dark:text-amber-300">{w.nothingToDeduct}</p>
            ) : preview?.floored ? (
              <p className="mt-2 text-xs text-amber-700 dark:text-amber-300">
                The balance cannot go below ₹0.00, so only {formatRupees(preview.moved)} will be deducted.
              </p>
            ) : null}
          </div>

          <div className="flex justify-end">
            <Button type="submit" variant={isAdd ? 'default' : 'destructive'} disabled={busy}>
              {busy ? (
                <Spinner className="text-current" />
              ) : isAdd ? (
                <PlusCircle aria-hidden="true" />
              ) : (
                <MinusCircle aria-hidden="true" />
              )}
              {isAdd ? 'Add Credits' : 'Deduct Credits'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

/** /admin/users/:id/wallet (spec 001 "Wallet management"). */
export function AdminWalletPage() {
  return (
    <AdminUserPage title="Wallet Management" description="Add or deduct a user's credits.">
      {(user) => (
        <div className="flex flex-col gap-6">
          <div className="grid gap-6 lg:grid-cols-3">
            <UserCard user={user} />
            <AdjustmentCard user={user} />
          </div>
          <TaxDocumentsCard source={userTaxDocuments(user.id)} />
        </div>
      )}
    </AdminUserPage>
  );
}
