/**
 * An instant as people in India read it, the same on the server (answers, toasts) and in the app.
 * IST has had no daylight saving since 1945, so a fixed offset is exact and no time-zone data is
 * needed (Electron, browsers and Node ship different ICU data).
 */
const IST_OFFSET_MS = (5 * 60 + 30) * 60_000;
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
