import { unitsToRupees } from '@shared/money';
import type { TCostPreview } from '@shared/schemas/sending';
import type { SendPreview } from '../sending/service';

/** The cost preview's answer (spec 002 §9; docs/decisions/2026-11-21-sending-rules.md): counts as screened, money in rupees. */
export function presentCostPreview(preview: SendPreview): TCostPreview {
  const { quote } = preview;
  return {
    recipients: preview.recipients,
    billable: preview.billable,
    duplicates: preview.duplicates,
    ...(preview.repeats === undefined ? {} : { repeats: preview.repeats }),
    invalid: preview.invalid,
    ...(preview.suppressed === undefined ? {} : { suppressed: preview.suppressed }),
    category: preview.category,
    pricePerMessage: unitsToRupees(quote.priceUnits, 4),
    totalCost: unitsToRupees(quote.costUnits, 4),
    currency: 'INR',
    balance: unitsToRupees(quote.balanceUnits, 4),
    balanceAfter: unitsToRupees(quote.balanceAfterUnits, 4),
    sufficient: quote.sufficient,
    ...(preview.exact === undefined ? {} : { exact: preview.exact }),
    ...(preview.setAside === undefined ? {} : { skippedRows: preview.setAside.listed, skippedCount: preview.setAside.count }),
    ...(preview.warnings === undefined ? {} : { warnings: preview.warnings }),
  };
}
