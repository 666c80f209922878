/**
 * An instant as people in India read it, the same on the server (answers, toasts) and in the app.
 * IST has had no daylight saving since 1945, so a fixed offset is exact and no time-zone data is
 * needed (Electron, browsers and Node ship different ICU data).
 */
export const IST_OFFSET_MS = (5 * 60 + 30) * 60_000;
/** How screens and files name the zone their times are in. */
export const IST_LABEL = 'IST';
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** "25 Nov 2026, 10:30 am", without the zone's name ('—' if unreadable). */
export function formatIstTime(value: Date | string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  const ms = (value instanceof Date ? value : new Date(value)).getTime();
  if (!Number.isFinite(ms)) return '—';
  const ist = new Date(ms + IST_OFFSET_MS);
  const hours = ist.getUTCHours();
  const hour12 = hours % 12 === 0 ? 12 : hours % 12;
  return `${ist.getUTCDate()} ${MONTHS[ist.getUTCMonth()]} ${ist.getUTCFullYear()}, ${hour12}:${String(ist.getUTCMinutes()).padStart(2, '0')} ${hours < 12 ? 'am' : 'pm'}`;
}

/** "25 Nov 2026, 10:30 am IST": a time on screen, saying its zone ('—' if unreadable). */
export function formatIstTimeLabelled(value: Date | string | number | null | undefined): string {
  const text = formatIstTime(value);
  return text === '—' ? text : `${text} ${IST_LABEL}`;
}

/**
 * An instant as IST wall-clock time, `2025-01-31 14:05:09`: what the exports write (a form
 * spreadsheets read as a date; the column heading says IST). Accepts an ISO string or a Date;
 * null stays null.
 */
export function formatIstDateTime(value: string | Date | null): string | null {
  if (value === null) return null;
  const ms = typeof value === 'string' ? Date.parse(value) : value.getTime();
  if (Number.isNaN(ms)) return null;
  const iso = new Date(ms + IST_OFFSET_MS).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}

/** Today's date in IST, `2025-01-31` (export file names, date filters). */
export function istDate(now: Date = new Date()): string {
  return new Date(now.getTime() + IST_OFFSET_MS).toISOString().slice(0, 10);
}

/** The instant an IST calendar day (`2025-01-31`) starts. */
export function istDayStart(day: string): Date {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) - IST_OFFSET_MS);
}

/** The IST calendar month YYYY-MM as the instants it starts and ends. */
export function istMonthRange(month: string): { from: Date; to: Date } {
  const year = Number(month.slice(0, 4));
  const monthIndex = Number(month.slice(5, 7));
  const next = monthIndex === 12 ? `${year + 1}-01-01` : `${year}-${String(monthIndex + 1).padStart(2, '0')}-01`;
  return { from: istDayStart(`${month}-01`), to: istDayStart(next) };
}
