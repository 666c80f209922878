import type { AppConfig } from './config';
import { versionRetirement } from './sending/graphApiVersions';

export interface StartupSummaryInput {
  url: string;
  admin: { username: string; created: boolean; generatedPassword: string | null };
  config: Pick<AppConfig, 'brand' | 'simulatorEnabled' | 'platformCloudApi'> & { providers: Pick<AppConfig['providers'], 'whatsappApiVersion'> };
  /** Today, for the Graph API version's retirement (injected by tests). */
  now?: Date;
}

/** How the administrator signs in, as far as this start knows it. */
function adminLine({ username, created, generatedPassword }: StartupSummaryInput['admin']): string {
  if (generatedPassword) return `Admin: ${username} (password: ${generatedPassword} — shown once)`;
  if (created) return `Admin: ${username} (password from ADMIN_PASSWORD)`;
  return `Admin: ${username} (created on an earlier start; its password is unchanged)`;
}

/** Where the messages the platform sends itself (password-reset codes) can be read. */
function platformMessagesLine({ url, config }: StartupSummaryInput): string {
  const label = 'Reset codes and other platform messages';
  if (config.platformCloudApi) return `${label}: sent on WhatsApp from the platform's number`;
  if (config.simulatorEnabled) return `${label}: ${url}/simulator/messages (add ?to=<phone digits> for one number)`;
  return `${label}: not sent (no simulator and no platform number configured)`;
}

/** The Graph API version sends use, and when Meta retires it; a warning within 90 days of that. */
function apiVersionLine({ config, now }: StartupSummaryInput): string {
  const version = config.providers.whatsappApiVersion;
  const retirement = versionRetirement(version, now ?? new Date());
  if (!retirement) return `Graph API: ${version}`;
  if (!retirement.warn) return `Graph API: ${version} (Meta answers it until ${retirement.availableUntil})`;
  const when = retirement.daysLeft < 0 ? 'retired' : `${retirement.daysLeft} ${retirement.daysLeft === 1 ? 'day' : 'days'} left`;
  return `WARNING Graph API: ${version} is retired by Meta on ${retirement.availableUntil} (${when}): set WHATSAPP_API_VERSION to a newer version`;
}

/**
 * The block that ends a development start, after the log lines: where the product runs, how to
 * sign in, where reset codes arrive while the simulator stands in for WhatsApp, and how to stop.
 */
export function startupSummary(input: StartupSummaryInput): string {
  const lines = [`${input.config.brand.name} is running at ${input.url}`, adminLine(input.admin), platformMessagesLine(input), apiVersionLine(input), 'Stop: Ctrl+C'];
  return `\n${lines.map((line) => `  ${line}`).join('\n')}\n\n`;
}
