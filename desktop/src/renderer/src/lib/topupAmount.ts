import { TOPUP } from '@shared/constants';
import { formatIndianNumber } from '@shared/money';
import { z } from 'zod';
import { ZCreateOrderRequest, ZTopUpAmount } from '@shared/schemas/payments';

/** What the custom amount field holds: an amount, an error, or (empty field) neither. */
export type TopUpAmountInput = { amount: number; error: null } | { amount: null; error: string | null };

/** Commas and spaces are only grouping (spec 000 §5): "1,00,000" and "100 000" are 100000. */
export function stripGrouping(text: string): string {
  return text.replace(/[,\s]/g, '');
}

/**
 * Reads the custom amount field with the rule the server applies (`ZTopUpAmount`). An empty
 * field (or one holding only separators) is no amount and no error.
 */
export function parseTopUpAmount(text: string): TopUpAmountInput {
  if (stripGrouping(text) === '') return { amount: null, error: null };
  const result = ZTopUpAmount.safeParse(text);
  if (result.success) return { amount: result.data, error: null };
  return { amount: null, error: result.error.issues[0]?.message ?? null };
}

/**
 * The field's text while it is not focused: whole numbers with Indian grouping ("1,00,000").
 * Anything that is not plain digits is left as typed, so the person sees what the error is about.
 */
export function formatAmountForDisplay(text: string): string {
  const digits = stripGrouping(text);
  if (!/^\d+$/.test(digits)) return text;
  // Past 2^53 Number() would round the digits; such an input is over the limit anyway.
  if (!Number.isSafeInteger(Number(digits))) return text;
  return formatIndianNumber(Number(digits));
}

/** The field's text while focused: the digits without grouping, easy to edit. */
export function formatAmountForEditing(text: string): string {
  return stripGrouping(text);
}

/** "₹1,000": how presets and amounts are labelled. */
export function formatAmountLabel(amount: number): string {
  return `₹${formatIndianNumber(amount)}`;
}

/**
 * The amount a link may preselect (`/user/wallet?amount=500`): accepted only when it is a whole
 * number within the top-up bounds, otherwise ignored.
 */
export function initialAmountFromQuery(value: string | null | undefined): number | null {
  if (value == null) return null;
  const { amount } = parseTopUpAmount(value);
  return amount !== null && amount >= TOPUP.minRupees && amount <= TOPUP.maxRupees ? amount : null;
}

/** Whether `amount` is one of the preset buttons. */
export function isPresetAmount(amount: number): boolean {
  return (TOPUP.presets as readonly number[]).includes(amount);
}

/**
 * The Add Credits form: a preset button or the custom field (which wins once it holds digits),
 * checked with the order request's shared schema; its messages go under the custom field when
 * that is the amount chosen. The output is the order request itself.
 */
export const ZTopUpForm = z.object({ preset: z.number().nullable(), custom: z.string() }).transform((form, context) => {
  const typed = stripGrouping(form.custom) !== '';
  const result = ZCreateOrderRequest.safeParse({ amountCredits: typed ? form.custom : (form.preset ?? '') });
  if (result.success) return result.data;
  for (const issue of result.error.issues) context.addIssue({ code: 'custom', path: [typed ? 'custom' : 'preset'], message: issue.message });
  return z.NEVER;
});
export type TTopUpForm = z.input<typeof ZTopUpForm>;
