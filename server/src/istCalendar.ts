/**
 * Calendar days in India (the product's time zone) on the server: the dashboards, the chart and
 * the kept per-day totals count by Indian day. India Standard Time has had no daylight saving since
 * 1945, so its offset is one constant (IST_OFFSET_MS, shared with the apps) and days last 24 hours.
 */
import { IST_OFFSET_MS, istDayStart } from '@shared/istTime';

export { IST_OFFSET_MS, istDayStart };

/** The calendar day in India of an instant, as YYYY-MM-DD (SQLite gives ISO strings, PostgreSQL Dates). */
export function istDay(at: string | Date): string {
  return new Date(new Date(at).getTime() + IST_OFFSET_MS).toISOString().slice(0, 10);
}

/** The instant the Indian calendar month of `at` begins. */
export function istMonthStart(at: Date): Date {
  const local = new Date(at.getTime() + IST_OFFSET_MS);
  return new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), 1) - IST_OFFSET_MS);
}
