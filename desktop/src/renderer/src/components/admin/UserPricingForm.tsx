import { Save, Undo2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { messages } from '@shared/messages';
import { PRICE_CATEGORIES, type PriceCategory } from '@shared/pricing';
import { ZUserPricingRequest } from '@shared/schemas/pricing';
import type { TUserPricingResponse } from '@shared/types';
import { errorText, serverFieldErrors } from '../../api/client';
import { useUpdateUserPricing } from '../../hooks/usePricing';
import { validateForm, withoutField, type FieldErrors } from '../../lib/forms';
import { buildRevertPayload, buildUserPricingPayload, PRICE_LABELS, priceFormFrom, sortPriceErrors, type PriceForm } from '../../lib/pricingForm';
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
import { TextField } from '../ui/form-field';
import { Label } from '../ui/label';
import { Spinner } from '../ui/spinner';
import { Switch } from '../ui/switch';
import { PriceList } from './PriceList';

const p = messages.pricing;

/**
 * A user's pricing on the admin's user settings (spec 001 "User settings", Pricing tab): custom
 * prices per category or the global defaults, revert with confirmation, and the prices in effect.
 */
export function UserPricingForm({ userId, pricing }: { userId: number; pricing: TUserPricingResponse }) {
  const update = useUpdateUserPricing(userId);
  const [customEnabled, setCustomEnabled] = useState(pricing.mode === 'custom');
  const [form, setForm] = useState<PriceForm>(() => priceFormFrom(pricing.custom));
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [error, setError] = useState('');
  const [confirmRevert, setConfirmRevert] = useState(false);
  const [action, setAction] = useState<'save' | 'revert' | null>(null);
  const busy = update.isPending;
  const sorted = sortPriceErrors(fieldErrors);

  const applyResponse = (response: TUserPricingResponse) => {
    setCustomEnabled(response.mode === 'custom');
    setForm(priceFormFrom(response.custom));
    setFieldErrors({});
    setError('');
  };

  const handleChange = (category: PriceCategory) => (value: string) => {
    setForm((current) => ({ ...current, [category]: value }));
    // A price fixes its own message and the "at least one" message of the whole form.
    setFieldErrors((errors) => withoutField(withoutField(errors, `pricing.${category}`), 'pricing'));
  };

  const handleToggle = (checked: boolean) => {
    setCustomEnabled(checked);
    setFieldErrors({});
  };

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setError('');
    const validation = validateForm(ZUserPricingRequest, buildUserPricingPayload(customEnabled, form));
    if (!validation.ok) {
      setFieldErrors(validation.errors);
      return;
    }
    setAction('save');
    try {
      const response = await update.mutateAsync(validation.data);
      applyResponse(response);
      toast.success(response.message || p.userPricingUpdated);
    } catch (caught) {
      const text = errorText(caught, p.updateFailed);
      setError(text);
      setFieldErrors(serverFieldErrors(caught));
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
        <form noValidate onSubmit={handleSubmit} aria-label="User pricing">
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
              <Switch
                id="custom-pricing"
                checked={customEnabled}
                disabled={busy}
                aria-describedby="custom-pricing-hint"
                onCheckedChange={handleToggle}
              />
            </div>
            {customEnabled ? (
              <div className="flex flex-col gap-3">
                {sorted.form ? <Alert tone="error">{sorted.form}</Alert> : null}
                <div className="grid gap-4 sm:grid-cols-3">
                  {PRICE_CATEGORIES.map((category) => (
                    <TextField
                      key={category}
                      id={`custom-price-${category}`}
                      label={`${PRICE_LABELS[category]} (₹)`}
                      inputMode="decimal"
                      autoComplete="off"
                      placeholder={pricing.defaults[category]}
                      value={form[category]}
                      error={sorted.fields[category]}
                      hint={`Empty: default ₹${pricing.defaults[category]}`}
                      disabled={busy}
                      onChange={(e) => handleChange(category)(e.target.value)}
                    />
                  ))}
                </div>
              </div>
            ) : sorted.form ? (
              <Alert tone="error">{sorted.form}</Alert>
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
