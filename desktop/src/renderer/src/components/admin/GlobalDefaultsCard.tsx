import { RotateCcw, Save } from 'lucide-react';
import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import { toast } from 'sonner';
import { messages } from '@shared/messages';
import { PRICE_CATEGORIES, type TPriceSet } from '@shared/pricing';
import { ZPriceDefaultsRequest, type TPriceDefaultsRequest } from '@shared/schemas/pricing';
import type { TPriceDefaultsResponse } from '@shared/types';
import { errorText, serverFieldErrors } from '../../api/client';
import { formatDateTime } from '../../lib/dates';
import { isPriceFormChanged, PRICE_LABELS, priceFormFrom } from '../../lib/pricingForm';
import { FormAmountField } from '../form/fields';
import { showServerFieldErrors, textFieldsCheckedBy, useSchemaForm } from '../form/useSchemaForm';
import { Alert } from '../ui/alert';
import { Button } from '../ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '../ui/card';
import { Spinner } from '../ui/spinner';
import { ErrorCard } from './ErrorCard';
import { PriceList } from './PriceList';
import { usePriceDefaults, useUpdatePriceDefaults } from '../../hooks/usePricing';

const p = messages.pricing;

/** The price texts (the three template categories and service replies), checked by the server's schema. */
const ZDefaultsForm = textFieldsCheckedBy(PRICE_CATEGORIES, ZPriceDefaultsRequest);

function DefaultsForm({ saved, updatedAt }: { saved: TPriceSet; updatedAt: string | null }) {
  const update = useUpdatePriceDefaults();
  const form = useSchemaForm(ZDefaultsForm, priceFormFrom(saved));
  const values = useWatch({ control: form.control });
  const [error, setError] = useState('');
  const changed = isPriceFormChanged(saved, { ...priceFormFrom(saved), ...values });
  const busy = update.isPending;

  const handleReset = () => {
    form.reset(priceFormFrom(saved));
    setError('');
  };

  const handleSave = async (defaults: TPriceDefaultsRequest) => {
    if (!changed) return;
    setError('');
    try {
      const response = await update.mutateAsync(defaults);
      form.reset(priceFormFrom(response.defaults));
      toast.success(response.message ?? p.defaultsUpdated);
    } catch (caught) {
      const text = errorText(caught, p.updateDefaultsFailed);
      setError(text);
      showServerFieldErrors(form, serverFieldErrors(caught));
      toast.error(text);
    }
  };

  return (
    <form noValidate onSubmit={(event) => void form.handleSubmit(handleSave)(event)} aria-label="Global default prices">
      <CardContent className="flex flex-col gap-5">
        <div>
          <p className="mb-2 text-xs font-medium uppercase tracking-wide text-slate-500 dark:text-slate-400">
            Current defaults
          </p>
          <PriceList prices={saved} />
          {updatedAt ? (
            <p className="mt-2 text-xs text-slate-500 dark:text-slate-400">Last changed {formatDateTime(updatedAt)}</p>
          ) : null}
        </div>
        {error ? <Alert tone="error">{error}</Alert> : null}
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {PRICE_CATEGORIES.map((category) => (
            <FormAmountField
              key={category}
              control={form.control}
              name={category}
              id={`default-price-${category}`}
              label={`${PRICE_LABELS[category]} (₹ per message)`}
              paise
              disabled={busy}
            />
          ))}
        </div>
      </CardContent>
      <CardFooter className="justify-end">
        <Button variant="outline" onClick={handleReset} disabled={busy || !changed}>
          <RotateCcw aria-hidden="true" />
          Reset
        </Button>
        <Button type="submit" disabled={busy || !changed}>
          {busy ? <Spinner className="text-current" /> : <Save aria-hidden="true" />}
          Save Defaults
        </Button>
      </CardFooter>
    </form>
  );
}

/**
 * The global default prices (spec 001 "Pricing Management"): the current figures and a field
 * per category (service replies included); Save is enabled only when a value differs. Shown on /admin/pricing and /admin/settings.
 */
export function GlobalDefaultsCard() {
  const defaults = usePriceDefaults();

  if (defaults.error) {
    return (
      <ErrorCard
        title={p.fetchDefaultsFailed}
        detail={errorText(defaults.error, p.fetchDefaultsFailed)}
        onRetry={() => void defaults.refetch()}
        isRetrying={defaults.isFetching}
      />
    );
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Global Default Prices</CardTitle>
        <CardDescription>
          Per-message prices in INR for every user without custom pricing. Up to 4 decimal places.
        </CardDescription>
      </CardHeader>
      {defaults.data ? (
        <DefaultsForm
          // A fresh form whenever the saved figures change elsewhere (another tab, a refetch).
          key={defaultsKey(defaults.data)}
          saved={defaults.data.defaults}
          updatedAt={defaults.data.updatedAt}
        />
      ) : (
        <CardContent>
          <Spinner label={messages.common.loading} />
        </CardContent>
      )}
    </Card>
  );
}

function defaultsKey(response: TPriceDefaultsResponse): string {
  return PRICE_CATEGORIES.map((category) => response.defaults[category]).join('|');
}
