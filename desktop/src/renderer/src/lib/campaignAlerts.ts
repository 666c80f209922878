/**
 * Which of the signed-in person's notifications become a system notification: a
 * campaign that completed or failed, once, and only when it arrived while the app was open. The
 * list the app already holds (the bell's, fed by the live stream in the browser and by polling on
 * the desktop) is what is watched, so no second connection is made.
 */
import type { TNotification } from '@shared/schemas/notifications';

/** Notification kinds the server posts when a campaign ends (server/src/notifications/service.ts). */
export const CAMPAIGN_ALERT_KINDS: ReadonlySet<string> = new Set(['campaign_completed', 'campaign_failed']);

export interface CampaignAlerts {
  /** Takes the current list; calls `notify` for each campaign ending not seen before. */
  observe(notifications: readonly TNotification[]): void;
  /** Forgets everything (another person signed in): the next list is the new baseline. */
  reset(): void;
}

export function createCampaignAlerts(notify: (title: string, body: string) => void): CampaignAlerts {
  // Null until the first list: what is there at start was already there, and is not announced.
  let seen: Set<number> | null = null;
  return {
    observe(notifications) {
      if (seen === null) {
        seen = new Set(notifications.map((n) => n.id));
        return;
      }
      // Oldest first, so that two endings are announced in the order they happened.
      for (const n of [...notifications].reverse()) {
        if (seen.has(n.id)) continue;
        seen.add(n.id);
        if (!n.read && CAMPAIGN_ALERT_KINDS.has(n.kind)) notify(n.title, n.message);
      }
    },
    reset() {
      seen = null;
    },
  };
}
