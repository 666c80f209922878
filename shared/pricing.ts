import { CREDIT_UNITS_PER_RUPEE } from './constants';

/** Template categories, then `service`: a free-form reply inside Meta's customer service window (0 by default). */
export const PRICE_CATEGORIES = ['marketing', 'utility', 'authentication', 'service'] as const;
export type PriceCategory = (typeof PRICE_CATEGORIES)[number];

/** Prices as the API shows them: INR decimal strings ("0.80", "0.1234"). */
export type TPriceSet = Record<PriceCategory, string>;
/** Custom prices: null means "use the global default". */
export type TCustomPriceSet = Record<PriceCategory, string | null>;

export const PRICE_PATTERN = /^\d+(\.\d{1,4})?$/;

/** "0.80" -> 8000 credit units. The string must match PRICE_PATTERN. */
export function priceToUnits(price: string): number {
  const [whole = '0', fraction = ''] = price.split('.');
  return Number(whole) * CREDIT_UNITS_PER_RUPEE + Number(fraction.padEnd(4, '0'));
}

/** 8000 -> "0.80"; 1234 -> "0.1234": at least 2 decimals, at most 4. */
export function unitsToPrice(units: number): string {
  const whole = Math.floor(units / CREDIT_UNITS_PER_RUPEE);
  const fraction = String(units % CREDIT_UNITS_PER_RUPEE).padStart(4, '0').replace(/0{1,2}$/, '');
  return `${whole}.${fraction.length < 2 ? fraction.padEnd(2, '0') : fraction}`;
}
