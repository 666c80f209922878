/** Read-only platform facts of /admin/settings (docs/decisions/2026-11-24-routes.md). */
import { LOGS } from '@shared/constants';

function twoDigits(value: number): string {
  return String(value).padStart(2, '0');
}

/**
 * The cleanup schedule as people read it: "Daily at 02:00 UTC". The server may describe it as a
 * time ("02:00", "02:00 UTC"), as a daily cron expression ("0 2 * * *"), or in its own words,
 * which are shown as they are. Nothing from the server: the specification's 02:00 UTC.
 */
export function describeCleanupSchedule(schedule: string | null | undefined): string {
  const text = schedule?.trim() ?? '';
  if (!text) return `Daily at ${twoDigits(LOGS.cleanupHourUtc)}:00 UTC`;
  const cron = /^(\d{1,2})\s+(\d{1,2})\s+\*\s+\*\s+\*$/.exec(text);
  if (cron) return `Daily at ${twoDigits(Number(cron[2]))}:${twoDigits(Number(cron[1]))} UTC`;
  const time = /^(\d{1,2}):(\d{2})(?:\s*UTC)?$/i.exec(text);
  if (time) return `Daily at ${twoDigits(Number(time[1]))}:${time[2]} UTC`;
  return text;
}

export type PaymentsStatusTone = 'default' | 'warning' | 'secondary';

export interface PaymentsStatus {
  label: string;
  tone: PaymentsStatusTone;
  description: string;
}

/** Online top-ups: live Razorpay keys, the development sandbox, or nothing configured. */
export function describePaymentsStatus(payments: { enabled: boolean; sandbox: boolean } | null | undefined): PaymentsStatus {
  if (payments?.enabled && !payments.sandbox) {
    return {
      label: 'Razorpay configured',
      tone: 'default',
      description: 'Users can top up their wallets online with Razorpay.',
    };
  }
  if (payments?.enabled) {
    return {
      label: 'Sandbox',
      tone: 'warning',
      description: 'Top-ups go through the sandbox checkout: no real money moves. For development only.',
    };
  }
  return {
    label: 'Not configured',
    tone: 'secondary',
    description: 'Online top-ups are off until Razorpay keys are set on the server. Credits can still be added here by an admin.',
  };
}
