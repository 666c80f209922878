const dayFormat = new Intl.DateTimeFormat('en-IN', { day: 'numeric', month: 'short', year: 'numeric' });
const dateTimeFormat = new Intl.DateTimeFormat('en-IN', { dateStyle: 'medium', timeStyle: 'short' });

/** An ISO timestamp as a day ("5 Mar 2025"), or a dash when the server sent nothing readable. */
export function formatDay(value: string | null | undefined): string {
  const date = value ? new Date(value) : null;
  return date && !Number.isNaN(date.getTime()) ? dayFormat.format(date) : '—';
}

/** An ISO timestamp with its time ("5 Mar 2025, 2:30 pm"), or a dash. */
export function formatDateTime(value: string | null | undefined): string {
  const date = value ? new Date(value) : null;
  return date && !Number.isNaN(date.getTime()) ? dateTimeFormat.format(date) : '—';
}
