import { describe, expect, it, vi } from 'vitest';
import { createWebNotifier, type WebNotificationApi } from './web';

/** A stand-in for the browser's Notification with a settable permission. */
function fakeNotificationApi(permission: NotificationPermission) {
  const shown: Array<{ title: string; body: string; click: () => void; closed: boolean }> = [];
  class FakeNotification {
    static permission = permission;
    private entry: (typeof shown)[number];
    constructor(title: string, options: { body: string }) {
      this.entry = { title, body: options.body, click: () => undefined, closed: false };
      shown.push(this.entry);
    }
    addEventListener(_type: 'click', listener: () => void): void {
      this.entry.click = listener;
    }
    close(): void {
      this.entry.closed = true;
    }
  }
  return { api: FakeNotification satisfies WebNotificationApi, shown };
}

describe('web notifications', () => {
  it('shows one when the permission was granted; a click focuses the page and closes it', async () => {
    const { api, shown } = fakeNotificationApi('granted');
    const focus = vi.fn();
    await createWebNotifier(api, focus)('Campaign completed', 'Diwali: 10 delivered');
    expect(shown).toMatchObject([{ title: 'Campaign completed', body: 'Diwali: 10 delivered', closed: false }]);
    shown[0]!.click();
    expect(focus).toHaveBeenCalledTimes(1);
    expect(shown[0]!.closed).toBe(true);
  });

  it('does nothing (and never asks) when the permission is not granted or the API is missing', async () => {
    for (const permission of ['default', 'denied'] as const) {
      const { api, shown } = fakeNotificationApi(permission);
      await createWebNotifier(api, () => undefined)('t', 'b');
      expect(shown, permission).toEqual([]);
    }
    await expect(createWebNotifier(undefined, () => undefined)('t', 'b')).resolves.toBeUndefined();
  });

  it('skips a notification the browser refuses to construct', async () => {
    class Refusing {
      static permission: NotificationPermission = 'granted';
      constructor() {
        throw new TypeError("Failed to construct 'Notification': Illegal constructor.");
      }
      addEventListener(): void {}
      close(): void {}
    }
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await expect(createWebNotifier(Refusing, () => undefined)('t', 'b')).resolves.toBeUndefined();
    expect(warn).toHaveBeenCalledTimes(1);
    warn.mockRestore();
  });
});
