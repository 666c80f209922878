import type { AppConfig } from './config';

export interface StartupSummaryInput {
  url: string;
  admin: { username: string; created: boolean; generatedPassword: string | null };
  config: Pick<AppConfig, 'brand' | 'simulatorEnabled' | 'platformCloudApi'>;
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

/**
 * The block that ends a development start, after the log lines: where the product runs, how to
 * sign in, where reset codes arrive while the simulator stands in for WhatsApp, and how to stop.
 */
export function startupSummary(input: StartupSummaryInput): string {
  const lines = [`${input.config.brand.name} is running at ${input.url}`, adminLine(input.admin), platformMessagesLine(input), 'Stop: Ctrl+C'];
  return `\n${lines.map((line) => `  ${line}`).join('\n')}\n\n`;
}
