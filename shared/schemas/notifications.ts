import { z } from 'zod';
import { messages } from '../messages';

export const NOTIFICATION_TYPES = ['success', 'error', 'warning', 'info'] as const;
export type TNotificationType = (typeof NOTIFICATION_TYPES)[number];

/**
 * Event names on `GET /api/notifications/stream`: `notification` carries a TNotification (with an
 * id, so a reconnect catches up), `campaign_progress` a campaign's live counts (a TCampaign, no id).
 */
export const STREAM_EVENTS = {
  notification: 'notification',
  campaignProgress: 'campaign_progress',
  /** A conversation changed (a message arrived or was sent, a status moved): `{ contact }`. */
  conversation: 'conversation',
} as const;
export type TStreamEvent = (typeof STREAM_EVENTS)[keyof typeof STREAM_EVENTS];

/** A notification as the bell shows it. */
export interface TNotification {
  id: number;
  type: TNotificationType;
  kind: string;
  title: string;
  message: string;
  read: boolean;
  createdAt: string;
}

export interface TNotificationList {
  success: true;
  notifications: TNotification[];
  unreadCount: number;
}

/** `POST /api/notifications/read`: the given ids, or every unread one when `ids` is absent. */
export const ZMarkNotificationsReadRequest = z.object({
  ids: z.array(z.number().int().positive()).max(500).optional(),
});
export type TMarkNotificationsReadRequest = z.infer<typeof ZMarkNotificationsReadRequest>;

/** `PUT /api/notifications/low-balance`: rupees, 0 turns the alert off. */
export const ZLowBalanceThresholdRequest = z.object({
  thresholdRupees: z.number({ error: messages.notifications.lowBalanceInvalid }).min(0, { error: messages.notifications.lowBalanceInvalid }).max(10_000_000, { error: messages.notifications.lowBalanceInvalid }),
});
export type TLowBalanceThresholdRequest = z.infer<typeof ZLowBalanceThresholdRequest>;
