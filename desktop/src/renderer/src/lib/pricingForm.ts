/** Price forms of the admin area: global defaults and a user's custom pricing (spec 001 §5). */
import { PRICE_CATEGORIES, PRICE_PATTERN, priceToUnits, type PriceCategory, type TCustomPriceSet, type TPriceSet } from '@shared/pricing';
import { z } from 'zod';
import { ZUserPricingRequest, type TUserPricingRequest } from '@shared/schemas/pricing';
import type { FieldErrors } from './forms';

/** What the three price inputs hold: raw text, '' for empty. */
export type PriceForm = Record<PriceCategory, string>;

export const PRICE_LABELS: Record<PriceCategory, string> = {
  marketing: 'Marketing',
  utility: 'Utility',
  authentication: 'Authentication',
  service: 'Service replies',
};

export function priceFormFrom(prices: TPriceSet | TCustomPriceSet): PriceForm {
  return {
    marketing: prices.marketing ?? '',
    utility: prices.utility ?? '',
    authentication: prices.authentication ?? '',
    service: prices.service ?? '',
  };
}

/**
 * Two price texts are the same price when both are valid and equal in value ("0.8" and "0.80"),
 * or, when either is not a valid price, when they are the same text.
 */
function samePrice(a: string, b: string): boolean {
  const left = a.trim();
  const right = b.trim();
  if (PRICE_PATTERN.test(left) && PRICE_PATTERN.test(right)) return priceToUnits(left) === priceToUnits(right);
  return left === right;
}

/** The categories whose input differs from the saved price. */
export function changedPriceCategories(saved: TPriceSet, form: PriceForm): PriceCategory[] {
  return PRICE_CATEGORIES.filter((category) => !samePrice(saved[category], form[category]));
}

/** Spec 001 §5: the global defaults' Save is enabled only when a value differs from the current one. */
export function isPriceFormChanged(saved: TPriceSet, form: PriceForm): boolean {
  return changedPriceCategories(saved, form).length > 0;
}

/** Empty inputs mean "use the global default" and go to the server as null. */
function customPricing(form: PriceForm): TCustomPriceSet {
  const value = (text: string) => (text.trim() === '' ? null : text.trim());
  return { marketing: value(form.marketing), utility: value(form.utility), authentication: value(form.authentication), service: value(form.service) };
}

/**
 * The Pricing tab's save (spec 001 §4 "User pricing mode"): custom pricing sends the three
 * inputs; with the toggle off only the mode goes (the spec's client sends pricing only when
 * custom), and the server drops any custom prices with it.
 */
export function buildUserPricingPayload(customEnabled: boolean, form: PriceForm): TUserPricingRequest {
  if (!customEnabled) return { mode: 'default' };
  return { mode: 'custom', pricing: customPricing(form) };
}

/**
 * Revert to Defaults (spec 001 "Pricing tab"): mode default and the custom prices cleared. The
 * server clears them for any switch to default; the explicit nulls state the intent all the same.
 */
export function buildRevertPayload(): TUserPricingRequest {
  return { mode: 'default', pricing: { marketing: null, utility: null, authentication: null } };
}

export interface PriceFieldErrors {
  fields: Partial<Record<PriceCategory, string>>;
  /** Messages about the form as a whole ("At least one custom price ..."). */
  form: string | undefined;
}

/**
 * Sorts field messages (from the shared schema or the server's `details`) under the price
 * inputs. The user pricing call nests prices under `pricing.`, the defaults call does not;
 * anything else (`pricing`, `mode`, `_`) is about the whole form.
 */
export function sortPriceErrors(errors: FieldErrors): PriceFieldErrors {
  const result: PriceFieldErrors = { fields: {}, form: undefined };
  for (const [field, message] of Object.entries(errors)) {
    const category = PRICE_CATEGORIES.find((name) => field === name || field === `pricing.${name}`);
    if (category) result.fields[category] ??= message;
    else result.form ??= message;
  }
  return result;
}

/**
 * The Pricing tab's form: the switch and three price texts, checked by the server's schema on
 * what would be sent. A price's message goes under its field; one about the whole form (no
 * custom price given) goes to `root.pricing`, which react-hook-form keeps for the form.
 */
export const ZUserPricingForm = z
  .object({ customEnabled: z.boolean(), marketing: z.string(), utility: z.string(), authentication: z.string(), service: z.string() })
  .transform((form, context) => {
    const result = ZUserPricingRequest.safeParse(buildUserPricingPayload(form.customEnabled, form));
    if (result.success) return result.data;
    const sorted = sortPriceErrors(Object.fromEntries(result.error.issues.map((issue) => [issue.path.map(String).join('.'), issue.message])));
    for (const [category, message] of Object.entries(sorted.fields)) context.addIssue({ code: 'custom', path: [category], message });
    if (sorted.form) context.addIssue({ code: 'custom', path: ['root', 'pricing'], message: sorted.form });
    return z.NEVER;
  });
export type TUserPricingForm = z.input<typeof ZUserPricingForm>;
