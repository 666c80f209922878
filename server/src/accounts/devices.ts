/**
 * The devices a user signs in from. Each browser carries a long-lived random id in an
 * httpOnly cookie and the desktop app sends the id it keeps in its settings; the first sign-in of
 * an account makes its first device known without a word, and any later sign-in from an id not
 * seen before is a new device, which the caller tells the user about.
 */
import type { Knex } from 'knex';
import { DEVICE_ID_PATTERN } from '@shared/constants';
import type { Logger } from '../logger';
import { hashToken, newToken } from '../security/tokens';

export type DeviceSignIn = 'first' | 'known' | 'new';

/** The id a client sent, when it has the shape of one we issue (anything else is ignored). */
export function validDeviceId(value: string | undefined | null): string | null {
  return value && DEVICE_ID_PATTERN.test(value) ? value : null;
}

/** A fresh device id for a browser that has none yet. */
export function newDeviceId(): string {
  return newToken();
}

function operatingSystem(userAgent: string): string | null {
  if (/Windows/i.test(userAgent)) return 'Windows';
  if (/Android/i.test(userAgent)) return 'Android';
  if (/iPhone|iPad|iPod/i.test(userAgent)) return 'iOS';
  if (/CrOS/i.test(userAgent)) return 'ChromeOS';
  if (/Mac OS X|Macintosh/i.test(userAgent)) return 'macOS';
  if (/Linux/i.test(userAgent)) return 'Linux';
  return null;
}

function browser(userAgent: string): string | null {
  // Order matters: Edge and Opera say "Chrome" too, and Chrome says "Safari".
  if (/Edg(e|A|iOS)?\//.test(userAgent)) return 'Edge';
  if (/OPR\/|Opera/.test(userAgent)) return 'Opera';
  if (/SamsungBrowser\//.test(userAgent)) return 'Samsung Internet';
  if (/Firefox\/|FxiOS\//.test(userAgent)) return 'Firefox';
  if (/Chrome\/|CriOS\/|Chromium\//.test(userAgent)) return 'Chrome';
  if (/Safari\//.test(userAgent) && /Version\//.test(userAgent)) return 'Safari';
  return null;
}

/** How a device is named to its owner: "Chrome on Windows", "Sandesh desktop on macOS". */
export function deviceLabel(userAgent: string, desktop: boolean): string {
  const os = operatingSystem(userAgent);
  const name = desktop ? 'Sandesh desktop' : (browser(userAgent) ?? 'A web browser');
  return (os ? `${name} on ${os}` : name).slice(0, 120);
}

export class DeviceService {
  constructor(private readonly deps: { db: Knex; log: Logger; now?: () => Date }) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /**
   * Records a sign-in of `userId` from `deviceId`: 'first' when the account knew no device yet
   * (nothing to tell), 'known' for a device seen before, 'new' for one that was not. Never throws:
   * a failure here must not stop the sign-in (it answers 'known', which tells nobody anything).
   */
  async signedIn(userId: number, deviceId: string, label: string): Promise<DeviceSignIn> {
    try {
      const deviceHash = hashToken(deviceId);
      const nowIso = this.now().toISOString();
      const seen = await this.deps.db('user_devices').where({ userId, deviceHash }).update({ lastSeenAt: nowIso, label });
      if (seen > 0) return 'known';
      const any = (await this.deps.db('user_devices').where({ userId }).first('id')) as { id: number } | undefined;
      const inserted = (await this.deps.db('user_devices')
        .insert({ userId, deviceHash, label, firstSeenAt: nowIso, lastSeenAt: nowIso })
        .onConflict(['userId', 'deviceHash'])
        .ignore()
        .returning('id')) as unknown[];
      // A concurrent sign-in of the same device inserted it first: it is known.
      if (inserted.length === 0) return 'known';
      return any ? 'new' : 'first';
    } catch (error) {
      this.deps.log.warn({ err: error, userId }, 'device sign-in not recorded');
      return 'known';
    }
  }
}
