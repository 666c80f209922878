import { lazyWebSpreadsheets } from './spreadsheets';
import type { Platform } from './types';

/** The part of the browser's Notification API used here (a fake in tests). */
export interface WebNotificationApi {
  readonly permission: NotificationPermission;
  new (title: string, options: { body: string }): { addEventListener(type: 'click', listener: () => void): void; close(): void };
}

/**
 * Shows a notification only when the user has already granted the permission: asking belongs to
 * a gesture of theirs, not to a campaign finishing in the background.
 */
export function createWebNotifier(api: WebNotificationApi | undefined, focusWindow: () => void): (title: string, body: string) => Promise<void> {
  return async (title, body) => {
    if (!api || api.permission !== 'granted') return;
    try {
      const notification = new api(title, { body });
      notification.addEventListener('click', () => {
        focusWindow();
        notification.close();
      });
    } catch (error) {
      // Some browsers (Android Chrome) refuse the constructor outside a service worker.
      console.warn('Could not show the notification', error);
    }
  };
}

/** The browser keeps the session in an httpOnly cookie that script cannot (and need not) touch. */
export const webPlatform: Platform = {
  kind: 'web',
  session: {
    load: () => Promise.resolve(null),
    save: () => Promise.resolve(),
    clear: () => Promise.resolve(),
  },
  serverUrl: () => Promise.resolve(''),
  deviceId: () => Promise.resolve(null),
  reloadTo(path) {
    window.location.assign(path);
  },
  notify: createWebNotifier(typeof Notification === 'undefined' ? undefined : Notification, () => window.focus()),
  spreadsheets: lazyWebSpreadsheets(),
};
