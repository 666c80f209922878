/**
 * When Meta retires the Graph API versions the Cloud API adapter may be configured with, from
 * Meta's Graph API changelog ("Available until"):
 * https://developers.facebook.com/docs/graph-api/changelog/versions/ (read 2026-12-07; the table
 * also stands in ../shared/reference/meta-whatsapp-openapi/README.md). A version past its date
 * answers every call with an error, so a start with one close to it warns the operator.
 * Newer versions are added here as Meta announces their dates.
 */
export const GRAPH_API_RETIREMENTS: Readonly<Record<string, string>> = {
  'v21.0': '2027-01-21',
  'v22.0': '2027-05-20',
  'v23.0': '2027-10-08',
  'v24.0': '2028-02-18',
  'v25.0': '2028-07-29',
};

/** How far ahead a retirement is warned about. */
export const RETIREMENT_WARNING_DAYS = 90;

const DAY_MS = 86_400_000;

export interface VersionRetirement {
  version: string;
  /** The last day Meta answers the version (its "available until"), `YYYY-MM-DD`. */
  availableUntil: string;
  /** Whole days from `now` to that day; negative once it has passed. */
  daysLeft: number;
  /** Within RETIREMENT_WARNING_DAYS, or past. */
  warn: boolean;
}

/** The configured version's retirement as seen on `now`, or null for a version without an announced date. */
export function versionRetirement(version: string, now: Date): VersionRetirement | null {
  const availableUntil = GRAPH_API_RETIREMENTS[version];
  if (!availableUntil) return null;
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const daysLeft = Math.round((Date.parse(`${availableUntil}T00:00:00Z`) - today) / DAY_MS);
  return { version, availableUntil, daysLeft, warn: daysLeft <= RETIREMENT_WARNING_DAYS };
}

/** The operator's warning for a version Meta retires within 90 days (or has retired), else null. */
export function retirementWarning(version: string, now: Date): string | null {
  const retirement = versionRetirement(version, now);
  if (!retirement?.warn) return null;
  const when = retirement.daysLeft < 0 ? `was retired by Meta on ${retirement.availableUntil}` : `is retired by Meta on ${retirement.availableUntil} (in ${retirement.daysLeft} ${retirement.daysLeft === 1 ? 'day' : 'days'})`;
  return `WHATSAPP_API_VERSION ${version} ${when}: sends will fail after that day. Set WHATSAPP_API_VERSION to a newer version.`;
}
