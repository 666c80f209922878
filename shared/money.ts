import { CREDIT_UNITS_PER_RUPEE } from './constants';

/** Integer credit units (1/10000 rupee) to rupees, rounded to `decimals` places. */
export function unitsToRupees(units: number, decimals = 2): number {
  const factor = 10 ** decimals;
  return Math.round((units / CREDIT_UNITS_PER_RUPEE) * factor) / factor;
}

/** Rupees (up to 4 decimals) to integer credit units. */
export function rupeesToUnits(rupees: number): number {
  return Math.round(rupees * CREDIT_UNITS_PER_RUPEE);
}

const groupers = new Map<string, Intl.NumberFormat>();

/** Indian digit grouping (1,00,000), with a fixed number of decimals. */
export function formatIndianNumber(value: number, decimals = 0): string {
  const key = String(decimals);
  let formatter = groupers.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat('en-IN', {
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    });
    groupers.set(key, formatter);
  }
  return formatter.format(value);
}

/** A rupee amount as shown to people: ₹1,00,000.00 */
export function formatRupees(value: number, decimals = 2): string {
  return `₹${formatIndianNumber(value, decimals)}`;
}
