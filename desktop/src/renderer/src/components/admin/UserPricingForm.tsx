import { Save, Undo2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Controller, useWatch } from 'react-hook-form';
import { toast } from 'sonner';
import { messages } from '@shared/messages';
import { PRICE_CATEGORIES } from '@shared/pricing';
import type { TUserPricingRequest } from '@shared/schemas/pricing';
import type { TUserPricingResponse } from '@shared/types';
import { errorText, serverFieldErrors } from '../../api/client';
import { useUpdateUserPricing } from '../../hooks/usePricing';
import { buildRevertPayload, PRICE_LABELS, priceFormFrom, sortPriceErrors, ZUserPricingForm, type TUserPricingForm } from '../../lib/pricingForm';
import { FormAmountField } from '../form/fields';
import { showServerFieldErrors, useSchemaForm } from '../form/useSchemaForm';
import { Alert } from '../ui/alert';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '../ui/alert-dialog';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '../ui/card';
import { Label } from '../ui/label';
import { Spinner } from '../ui/spinner';
import { Switch } from '../ui/switch';
import { PriceList } from './PriceList';

const p = messages.pricing;

function pricingFormFrom(pricing: TUserPricingResponse): TUserPricingForm {
  return { customEnabled: pricing.mode === 'custom', ...priceFormFrom(pricing.custom) };
}

/**
 * A user's pricing on the admin's user settings (spec 001 "User settings", Pricing tab): custom
 * prices per category or the global defaults, revert with confirmation, and the prices in effect.
 */
export function UserPricingForm({ userId, pricing }: { userId: number; pricing: TUserPricingResponse }) {
  const update = useUpdateUserPricing(userId);
  const form = useSchemaForm(ZUserPricingForm, pricingFormFrom(pricing));
  const customEnabled = useWatch({ control: form.control, name: 'customEnabled' });
  const [error, setError] = useState('');
  const [confirmRevert, setConfirmRevert] = useState(false);
  const [action, setAction] = useState<'save' | 'revert' | null>(null);
  const busy = update.isPending;
  const formError = form.formState.errors.root?.pricing?.message;

  // Any edit (a price, the switch) answers the "at least one price" message of the whole form.
  const { subscribe, clearErrors } = form;
  useEffect(() => subscribe({ formState: { values: true }, callback: ({ type }) => type && clearErrors('root.pricing') }), [subscribe, clearErrors]);

  const applyResponse = (response: TUserPricingResponse) => {
    form.reset(pricingFormFrom(response));
    setError('');
  };

  const handleSave = async (request: TUserPricingRequest) => {
    setError('');
    setAction('save');
    try {
      const response = await update.mutateAsync(request);
      applyResponse(response);
      toast.success(response.message || p.userPricingUpdated);
    } catch (caught) {
      const text = errorText(caught, p.updateFailed);
      setError(text);
      const sorted = sortPriceErrors(serverFieldErrors(caught));
      showServerFieldErrors(form, sorted.fields);
      if (sorted.form) form.setError('root.pricing', { type: 'server', message: sorted.form });
      toast.error(text);
    } finally {
      setAction(null);
    }
  };

  const handleRevert = async () => {
    setAction('revert');
    try {
      const response = await update.mutateAsync(buildRevertPayload());
      applyResponse(response);
      setConfirmRevert(false);
      toast.success(p.userPricingReverted);
    } catch (caught) {
      const text = errorText(caught, p.revertFailed);
      setError(text);
      setConfirmRevert(false);
      toast.error(text);
    } finally {
      setAction(null);
    }
  };

  return (
    <div className="grid gap-6 lg:grid-cols-3">
      <Card className="lg:col-span-2">
        <form noValidate onSubmit={(event) => void form.handleSubmit(handleSave)(event)} aria-label="User pricing">
          <CardHeader className="gap-3 sm:flex-row sm:items-start sm:justify-between">
            <div>
              <CardTitle>Pricing</CardTitle>
              <CardDescription>Per-message prices in INR for this user, up to 4 decimal places.</CardDescription>
            </div>
            <Badge variant={pricing.mode === 'custom' ? 'info' : 'secondary'} data-testid="pricing-mode">
              {pricing.mode === 'custom' ? 'Custom pricing' : 'Default pricing'}
            </Badge>
          </CardHeader>
          <CardContent className="flex flex-col gap-5">
            {error ? <Alert tone="error">{error}</Alert> : null}
            <div className="flex items-center justify-between gap-4 rounded-lg border border-slate-200 p-4 dark:border-slate-800">
              <div>
                <Label htmlFor="custom-pricing">Use custom pricing</Label>
                <p id="custom-pricing-hint" className="mt-1 text-xs text-slate-500 dark:text-slate-400">
                  {customEnabled ? p.customPricingOnHint : p.customPricingOffHint}
                </p>
              </div>
              <Controller
                control={form.control}
                name="customEnabled"
                render={({ field }) => (
                  <Switch
                    id="custom-pricing"
                    ref={field.ref}
                    checked={field.value}
                    disabled={busy}
                    aria-describedby="custom-pricing-hint"
                    onCheckedChange={(checked) => {
                      field.onChange(checked);
                      form.clearErrors();
                    }}
                  />
                )}
              />
            </div>
            {customEnabled ? (
              <div className="flex flex-col gap-3">
                {formError ? <Alert tone="error">{formError}</Alert> : null}
                <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
                  {PRICE_CATEGORIES.map((category) => (
                    <FormAmountField
                      key={category}
                      control={form.control}
                      name={category}
                      id={`custom-price-${category}`}
                      label={`${PRICE_LABELS[category]} (₹)`}
                      paise
                      placeholder={pricing.defaults[category]}
                      hint={`Empty: default ₹${pricing.defaults[category]}`}
                      disabled={busy}
                    />
                  ))}
                </div>
              </div>
            ) : formError ? (
              <Alert tone="error">{formError}</Alert>
            ) : null}
          </CardContent>
          <CardFooter className="flex-wrap justify-between gap-2">
            {pricing.mode === 'custom' ? (
              <Button variant="outline" onClick={() => setConfirmRevert(true)} disabled={busy}>
                <Undo2 aria-hidden="true" />
                Revert to Defaults
              </Button>
            ) : (
              <span />
            )}
            <Button type="submit" disabled={busy}>
              {action === 'save' ? <Spinner className="text-current" /> : <Save aria-hidden="true" />}
              Save Pricing
            </Button>
          </CardFooter>
        </form>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Prices in effect</CardTitle>
          <CardDescription>What this user is charged per message now.</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-5">
          <section aria-label="Effective prices" data-testid="effective-prices">
            <PriceList prices={pricing.effective} layout="column" />
          </section>
          <section aria-labelledby="global-defaults-heading">
            <h4 id="global-defaults-heading" className="mb-2 text-xs font-medium uppercase tracking-wide text-slate-500 dark:text-slate-400">
              Global defaults
            </h4>
            <PriceList prices={pricing.defaults} layout="column" />
          </section>
        </CardContent>
      </Card>

      <AlertDialog open={confirmRevert} onOpenChange={(open) => !busy && setConfirmRevert(open)}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Revert to Defaults</AlertDialogTitle>
            <AlertDialogDescription>
              This user's custom prices will be cleared and they will pay the global default prices. Continue?
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel disabled={busy}>Cancel</AlertDialogCancel>
            {/* A plain button: the Radix Action would close the dialog before the call answers. */}
            <Button variant="destructive" onClick={() => void handleRevert()} disabled={busy}>
              {action === 'revert' ? <Spinner className="text-current" /> : null}
              Revert to Defaults
            </Button>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </div>
  );
}
