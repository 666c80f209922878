import { unitsToRupees } from '@shared/money';
import type { TCostPreview } from '@shared/schemas/sending';

/** The cost preview's answer (docs/decisions.md "Sending") from counts and integer credit units. */
export function presentCostPreview(input: {
  recipients: number;
  billable: number;
  duplicates: number;
  invalid: number;
  suppressed?: number;
  category: string;
  priceUnits: number;
  balanceUnits: number;
}): TCostPreview {
  const costUnits = input.billable * input.priceUnits;
  return {
    recipients: input.recipients,
    billable: input.billable,
    duplicates: input.duplicates,
    invalid: input.invalid,
    ...(input.suppressed === undefined ? {} : { suppressed: input.suppressed }),
    category: input.category,
    pricePerMessage: unitsToRupees(input.priceUnits, 4),
    totalCost: unitsToRupees(costUnits, 4),
    currency: 'INR',
    balance: unitsToRupees(input.balanceUnits, 4),
    balanceAfter: unitsToRupees(input.balanceUnits - costUnits, 4),
    sufficient: input.balanceUnits >= costUnits,
  };
}
