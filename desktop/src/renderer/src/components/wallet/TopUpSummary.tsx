import { computeGst, type TaxSplit } from '@shared/gst';
import { fillMessage, messages } from '@shared/messages';
import { formatIndianNumber } from '@shared/money';
import type { TGstTerms } from '@shared/types';
import { formatAmountLabel } from '../../lib/topupAmount';

const inv = messages.invoices;

/** "₹1,180.00" from paise, exact to the paisa. */
function paiseText(paise: number): string {
  return `₹${formatIndianNumber(paise / 100, 2)}`;
}

/** The tax of a top-up of `amount` rupees, as the server will price its order. */
export function topUpSplit(amount: number, gst: TGstTerms): TaxSplit {
  return computeGst(amount * 100, { mode: gst.mode, rateBasisPoints: gst.rateBasisPoints, intraState: gst.placeOfSupply === gst.supplierStateCode });
}

/** The pay button's amount: what the checkout will charge. */
export function payLabel(amount: number, gst: TGstTerms): string {
  return paiseText(topUpSplit(amount, gst).totalPaise);
}

/** What the person pays and gets, with the GST shown before payment when it applies. */
export function TopUpSummary({ amount, gst }: { amount: number | null; gst: TGstTerms | null }) {
  if (amount === null) return <p className="text-sm text-slate-600 dark:text-slate-300" aria-live="polite">Choose an amount to continue.</p>;
  if (!gst)
    return (
      <p className="text-sm text-slate-600 dark:text-slate-300" aria-live="polite">
        You pay <strong className="tabular-nums">{formatAmountLabel(amount)}</strong> and get <strong className="tabular-nums">{formatIndianNumber(amount)}</strong> credits.
      </p>
    );
  const split = topUpSplit(amount, gst);
  const tax = split.cgstPaise + split.sgstPaise + split.igstPaise;
  const heads = split.igstPaise > 0 ? fillMessage(inv.taxIgst, { igst: paiseText(split.igstPaise) }) : fillMessage(inv.taxCgstSgst, { cgst: paiseText(split.cgstPaise), sgst: paiseText(split.sgstPaise) });
  const line = fillMessage(gst.mode === 'exclusive' ? inv.taxBreakdown : inv.taxBreakdownInclusive, { taxable: paiseText(split.taxablePaise), tax: paiseText(tax), total: paiseText(split.totalPaise) });
  return (
    <div className="flex flex-col gap-1 text-sm text-slate-600 dark:text-slate-300" aria-live="polite" data-testid="topup-tax">
      <p>
        <strong className="tabular-nums">{line}</strong>
      </p>
      <p className="tabular-nums">
        {heads} · GST {gst.rateBasisPoints / 100}% · {formatIndianNumber(split.taxablePaise / 100, 2)} credits
      </p>
    </div>
  );
}
