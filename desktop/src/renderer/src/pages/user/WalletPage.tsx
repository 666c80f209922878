import { useQuery, useQueryClient } from '@tanstack/react-query';
import { LowBalanceAlertCard } from '../../components/notifications/LowBalanceAlertCard';
import { ArrowLeft, CreditCard, FlaskConical, Landmark, RefreshCw, ShieldCheck, Smartphone, Wallet } from 'lucide-react';
import { useLayoutEffect, useRef, useState, type FocusEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { toast } from 'sonner';
import { TOPUP } from '@shared/constants';
import { messages } from '@shared/messages';
import { formatRupees } from '@shared/money';
import { paymentKeys, paymentsApi } from '../../api/payments';
import { walletKeys } from '../../api/wallet';
import { WalletHistoryCard } from '../../components/wallet/WalletHistoryCard';
import { TaxDocumentsCard } from '../../components/wallet/TaxDocumentsCard';
import { ownTaxDocuments } from '../../api/invoices';
import { payLabel, TopUpSummary } from '../../components/wallet/TopUpSummary';
import { Alert } from '../../components/ui/alert';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { FieldShell } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { Spinner } from '../../components/ui/spinner';
import { useCreditBalance, useInvalidateCredits } from '../../hooks/useCreditBalance';
import { cn } from '../../lib/cn';
import {
  createCheckoutLoader,
  createScriptLoader,
  documentScriptHost,
  type RazorpayConstructor,
} from '../../lib/razorpayCheckout';
import {
  formatAmountForDisplay,
  formatAmountForEditing,
  formatAmountLabel,
  initialAmountFromQuery,
  isPresetAmount,
  parseTopUpAmount,
  stripGrouping,
  ZTopUpForm,
  type TTopUpForm,
} from '../../lib/topupAmount';
import { useBoundInput } from '../../components/form/fields';
import { useSchemaForm } from '../../components/form/useSchemaForm';
import { isTopUpWorking, runTopUp, type TopUpPhase } from '../../lib/topupFlow';
import { platform } from '../../platform';
import { useUIStore } from '../../stores/uiStore';

const w = messages.wallet;

/** One toast id, so that the success toast replaces 'Processing payment...' (one toast at a time). */
const TOPUP_TOAST_ID = 'wallet-topup';
/** emerald-600, the app's accent, for the checkout window. */
const CHECKOUT_THEME_COLOR = '#059669';
const CUSTOM_AMOUNT_ID = 'wallet-custom-amount';

/** Module-wide so that the checkout script is injected once per app run, not once per visit. */
const loadCheckout = createCheckoutLoader({
  serverUrl: () => platform.serverUrl(),
  loadScript: createScriptLoader(documentScriptHost),
  getConstructor: () => (window as Window & { Razorpay?: RazorpayConstructor }).Razorpay,
});

function BalanceCard({ balance, isRefreshing, onRefresh }: { balance: number; isRefreshing: boolean; onRefresh: () => void }) {
  return (
    <Card>
      <CardHeader className="flex-row items-start justify-between gap-4">
        <div>
          <CardTitle>Current Balance</CardTitle>
          <CardDescription>1 credit = ₹1</CardDescription>
        </div>
        <span className="flex size-10 items-center justify-center rounded-lg bg-emerald-100 text-emerald-700 dark:bg-emerald-500/15 dark:text-emerald-300">
          <Wallet className="size-5" aria-hidden="true" />
        </span>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <p className="flex items-center gap-3 text-3xl font-bold tabular-nums" aria-live="polite">
          <span data-testid="wallet-balance">{formatRupees(balance)}</span>
          {isRefreshing ? <Spinner className="size-5" label="Refreshing balance" /> : null}
        </p>
        <Button variant="outline" onClick={onRefresh} disabled={isRefreshing} className="self-start">
          <RefreshCw className={cn(isRefreshing && 'animate-spin')} aria-hidden="true" />
          {w.refreshBalance}
        </Button>
      </CardContent>
    </Card>
  );
}

function SecurePaymentNote() {
  const methods = [
    { icon: CreditCard, label: 'Cards' },
    { icon: Smartphone, label: 'UPI' },
    { icon: Landmark, label: 'Net banking' },
    { icon: Wallet, label: 'Wallets' },
  ];
  return (
    <Card>
      <CardContent className="flex flex-col gap-3 pt-6 sm:flex-row sm:items-start">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-sky-100 text-sky-700 dark:bg-sky-500/15 dark:text-sky-300">
          <ShieldCheck className="size-5" aria-hidden="true" />
        </span>
        <div className="flex flex-col gap-2">
          <h3 className="font-semibold">Secure Payment</h3>
          <p className="text-sm text-slate-600 dark:text-slate-300">
            Payments are processed securely by Razorpay, our card payment provider; we never see your card details.
            Credits are added to your wallet right after the payment is confirmed.
          </p>
          <ul className="flex flex-wrap gap-2" aria-label="Accepted payment methods">
            {methods.map(({ icon: Icon, label }) => (
              <li key={label}>
                <Badge variant="secondary">
                  <Icon className="size-3" aria-hidden="true" />
                  {label}
                </Badge>
              </li>
            ))}
          </ul>
        </div>
      </CardContent>
    </Card>
  );
}

/** /user/wallet (spec 000 §2.8, §4.6, §5). */
export function WalletPage() {
  const [searchParams] = useSearchParams();
  // `?amount=` preselects once, on arrival; later changes of the query are not the person's choice.
  const [initialAmount] = useState(() => initialAmountFromQuery(searchParams.get('amount')));
  // Spec 000 §5 says what is wrong with a custom amount as it is typed.
  const form = useSchemaForm(
    ZTopUpForm,
    {
      preset: initialAmount !== null && isPresetAmount(initialAmount) ? initialAmount : null,
      custom: initialAmount !== null && !isPresetAmount(initialAmount) ? formatAmountForDisplay(String(initialAmount)) : '',
    } satisfies TTopUpForm,
    { checkWhileTyping: true },
  );
  const preset = form.watch('preset');
  const customText = form.watch('custom');
  const customField = useBoundInput({ control: form.control, name: 'custom' });
  const [phase, setPhase] = useState<TopUpPhase>('idle');
  const { balance, isRefreshing, refresh: refreshBalance } = useCreditBalance();
  const invalidateCredits = useInvalidateCredits();
  const queryClient = useQueryClient();
  const customInput = useRef<HTMLInputElement>(null);
  const selectAllAfterFormat = useRef(false);
  const setCreditBalance = useUIStore((state) => state.setCreditBalance);
  const config = useQuery({ queryKey: paymentKeys.config, queryFn: paymentsApi.config, staleTime: 5 * 60_000 });

  const custom = parseTopUpAmount(customText);
  const hasCustom = stripGrouping(customText) !== '';
  const amount = hasCustom ? custom.amount : preset;
  const working = isTopUpWorking(phase);
  // A failed config read does not block paying: the order call is the authority and says why.
  const notConfigured = config.data?.enabled === false;
  const canPay = amount !== null && !working && !config.isPending && !notConfigured;

  const handlePreset = (value: number) => {
    form.setValue('preset', value);
    form.setValue('custom', '', { shouldValidate: true });
  };

  const handleCustomChange = (value: string) => {
    if (stripGrouping(value) !== '') form.setValue('preset', null);
  };

  const handlePay = form.handleSubmit(async ({ amountCredits }) => {
    if (!canPay) return;
    const outcome = await runTopUp(amountCredits, {
      createOrder: (amountCredits) => paymentsApi.createOrder({ amountCredits }),
      loadCheckout,
      verify: paymentsApi.verify,
      onPhase: setPhase,
      notifyProcessing: () =>
        toast.info(w.processingPayment, { id: TOPUP_TOAST_ID, description: w.processingPaymentDescription }),
      notifySuccess: (text) => toast.success(text, { id: TOPUP_TOAST_ID, description: undefined }),
      notifyEnded: () => toast.dismiss(TOPUP_TOAST_ID),
      alert: (text) => window.alert(text),
      refreshBalance: () => {
        invalidateCredits();
        void queryClient.invalidateQueries({ queryKey: walletKeys.all });
      },
      refreshWalletBalance: () => void refreshBalance(),
      reload: () => window.location.reload(),
      schedule: (task, delayMs) => window.setTimeout(task, delayMs),
      log: console,
      themeColor: CHECKOUT_THEME_COLOR,
    });
    // The verify answer already holds the new balance; show it before /me confirms it.
    if (outcome.status === 'succeeded') setCreditBalance(outcome.response.creditBalance);
  });

  const customError = hasCustom ? (customField.error ?? null) : null;

  /**
   * Tabbing into a field selects its text, so typing replaces it. Re-formatting "3,000" to "3000"
   * on focus would drop that selection and leave the caret at the end ("3000" + "4000" =
   * "30004000"): select everything again when it was all selected.
   */
  const handleCustomFocus = (event: FocusEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const editing = formatAmountForEditing(input.value);
    // Only a changed text re-renders (and runs the effect below); an unchanged one keeps its selection.
    if (editing === input.value) return;
    selectAllAfterFormat.current = input.selectionStart === 0 && input.selectionEnd === input.value.length;
    form.setValue('custom', editing);
  };

  useLayoutEffect(() => {
    if (!selectAllAfterFormat.current) return;
    selectAllAfterFormat.current = false;
    customInput.current?.select();
  }, [customText]);

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex items-center gap-3">
          <Button variant="ghost" size="sm" asChild>
            <Link to="/user/dashboard">
              <ArrowLeft aria-hidden="true" />
              Back to Dashboard
            </Link>
          </Button>
          <h2 className="text-2xl font-bold tracking-tight">{w.title}</h2>
        </div>
        {config.data?.sandbox ? (
          <Badge variant="warning" className="max-w-full self-start px-3 py-1 text-sm whitespace-normal" data-testid="sandbox-badge">
            <FlaskConical className="size-4" aria-hidden="true" />
            {w.sandboxNotice}
          </Badge>
        ) : null}
      </div>

      {notConfigured ? <Alert tone="warning">{w.notConfigured}</Alert> : null}

      <div className="grid gap-6 lg:grid-cols-3">
        <BalanceCard balance={balance} isRefreshing={isRefreshing} onRefresh={() => void refreshBalance()} />

        <Card className="lg:col-span-2">
          <form noValidate onSubmit={(event) => void handlePay(event)}>
            <CardHeader>
              <CardTitle>Add Credits</CardTitle>
              <CardDescription>Choose an amount or enter your own. 1 credit = ₹1.</CardDescription>
            </CardHeader>
            <CardContent className="flex flex-col gap-5">
              <div role="group" aria-labelledby="wallet-presets-label" className="flex flex-col gap-2">
                <p id="wallet-presets-label" className="text-sm font-medium text-slate-700 dark:text-slate-200">
                  Quick amounts
                </p>
                <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
                  {TOPUP.presets.map((value) => {
                    const selected = !hasCustom && preset === value;
                    return (
                      <Button
                        key={value}
                        variant={selected ? 'default' : 'outline'}
                        aria-pressed={selected}
                        disabled={working}
                        onClick={() => handlePreset(value)}
                        className="h-12 text-base tabular-nums"
                      >
                        {formatAmountLabel(value)}
                      </Button>
                    );
                  })}
                </div>
              </div>

              <FieldShell id={CUSTOM_AMOUNT_ID} label="Custom Amount" error={customError ?? undefined} hint={w.amountHelper}>
                <div className="relative">
                  <span
                    aria-hidden="true"
                    className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-sm text-slate-500 dark:text-slate-400"
                  >
                    ₹
                  </span>
                  <Input
                    id={CUSTOM_AMOUNT_ID}
                    inputMode="numeric"
                    autoComplete="off"
                    placeholder="Enter amount"
                    className="pl-7 tabular-nums"
                    name={customField.input.name}
                    value={customField.input.value}
                    disabled={working}
                    invalid={Boolean(customError)}
                    aria-describedby={customError ? `${CUSTOM_AMOUNT_ID}-error` : `${CUSTOM_AMOUNT_ID}-hint`}
                    onChange={(event) => {
                      customField.input.onChange(event);
                      handleCustomChange(event.target.value);
                    }}
                    ref={(element) => {
                      customInput.current = element;
                      customField.input.ref(element);
                    }}
                    onFocus={handleCustomFocus}
                    onBlur={() => {
                      form.setValue('custom', formatAmountForDisplay(form.getValues('custom')));
                      customField.input.onBlur();
                    }}
                  />
                </div>
              </FieldShell>

              <div className="flex flex-col gap-3 border-t border-slate-100 pt-4 sm:flex-row sm:items-center sm:justify-between dark:border-slate-800">
                <TopUpSummary amount={amount} gst={config.data?.gst ?? null} />
                <Button type="submit" size="lg" disabled={!canPay}>
                  {working ? <Spinner className="text-current" /> : <CreditCard aria-hidden="true" />}
                  {working ? w.processing : amount !== null ? (config.data?.gst ? `Pay ${payLabel(amount, config.data.gst)}` : `Add ${formatAmountLabel(amount)} Credits`) : 'Add Credits'}
                </Button>
              </div>
            </CardContent>
          </form>
        </Card>
      </div>

      <WalletHistoryCard />
      {config.data?.gst ? <TaxDocumentsCard source={ownTaxDocuments} /> : null}
      <SecurePaymentNote />
      <LowBalanceAlertCard />
    </div>
  );
}
