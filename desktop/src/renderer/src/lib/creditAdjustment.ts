/** Admin wallet adjustments (spec 001 "Wallet management" and §4 "Credit adjustment"). */

export type CreditAdjustmentMode = 'add' | 'deduct';

/** Quick amounts of the wallet screen (spec 001 §9); every business constant lives in shared/. */
export { ADMIN_QUICK_AMOUNTS } from '@shared/constants';

/** Up to 2 decimals, as credits are held to the paisa on screen (spec 001 §9). */
const AMOUNT_PATTERN = /^\d+(\.\d{1,2})?$/;

/**
 * The amount field as a number of rupees, or null when it is not a positive amount with at most
 * 2 decimals. Indian digit grouping ("1,00,000") and stray spaces are accepted.
 */
export function parseAdjustmentAmount(input: string): number | null {
  const cleaned = input.replace(/[,\s]/g, '');
  if (!AMOUNT_PATTERN.test(cleaned)) return null;
  const amount = Number(cleaned);
  return Number.isFinite(amount) && amount > 0 ? amount : null;
}

/** Whole paise, so that 0.1 + 0.2 style float drift never reaches the screen. */
function toPaise(rupees: number): number {
  return Math.round(rupees * 100);
}

export interface AdjustmentPreview {
  /** The balance after the adjustment, 2 decimals, never below 0. */
  newBalance: number;
  /** What actually moves: a deduction larger than the balance moves only the balance. */
  moved: number;
  /** True when a deduction was cut short by the floor at 0. */
  floored: boolean;
}

/**
 * What the server will do with an adjustment (spec 001 §4): add, or deduct with the balance
 * floored at 0, results rounded to 2 decimals. The server decides for real; this only previews.
 */
export function previewAdjustment(balance: number, mode: CreditAdjustmentMode, amount: number): AdjustmentPreview {
  const current = Math.max(0, toPaise(balance));
  const delta = Math.max(0, toPaise(amount));
  if (mode === 'add') return { newBalance: (current + delta) / 100, moved: delta / 100, floored: false };
  const moved = Math.min(current, delta);
  return { newBalance: (current - moved) / 100, moved: moved / 100, floored: delta > current };
}
