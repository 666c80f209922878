import { NOTIFICATIONS } from '@shared/constants';

export type NotificationType = 'success' | 'warning' | 'error' | 'info';

export interface NotificationAction {
  label: string;
  onClick: () => void;
}

export interface AppNotification {
  id: string;
  type: NotificationType;
  message: string;
  title?: string;
  action?: NotificationAction;
  timestamp: number;
  read: boolean;
  /** Milliseconds before it removes itself; null keeps it until dismissed. */
  autoRemoveMs: number | null;
}

export interface NotificationInput {
  type: NotificationType;
  message: string;
  title?: string;
  action?: NotificationAction;
  /** Overrides the default lifetime of success and info notifications. */
  duration?: number;
  /** Stays until dismissed, whatever its type. */
  persistent?: boolean;
}

export type NotificationEvent =
  | { type: 'add'; notification: AppNotification }
  | { type: 'markRead'; id: string }
  | { type: 'markAllRead' }
  | { type: 'remove'; id: string }
  | { type: 'clear' };

/** Spec 000 §4.5: success and info go after 4 s; warning and error stay until dismissed. */
export function autoRemoveDelay(input: Pick<NotificationInput, 'type' | 'duration' | 'persistent'>): number | null {
  if (input.persistent) return null;
  if (input.type === 'warning' || input.type === 'error') return null;
  return input.duration ?? NOTIFICATIONS.autoDismissMs;
}

export function createNotification(input: NotificationInput, id: string, now: number): AppNotification {
  return {
    id,
    type: input.type,
    message: input.message,
    title: input.title,
    action: input.action,
    timestamp: now,
    read: false,
    autoRemoveMs: autoRemoveDelay(input),
  };
}

/** Newest first, at most 50; dismissing removes. */
export function notificationsReducer(state: AppNotification[], event: NotificationEvent): AppNotification[] {
  switch (event.type) {
    case 'add':
      return [event.notification, ...state.filter((n) => n.id !== event.notification.id)].slice(
        0,
        NOTIFICATIONS.listCap,
      );
    case 'markRead':
      return state.map((n) => (n.id === event.id && !n.read ? { ...n, read: true } : n));
    case 'markAllRead':
      return state.some((n) => !n.read) ? state.map((n) => (n.read ? n : { ...n, read: true })) : state;
    case 'remove':
      return state.filter((n) => n.id !== event.id);
    case 'clear':
      return [];
  }
}

/** The one notification on screen: the first unread. */
export function visibleNotification(state: readonly AppNotification[]): AppNotification | undefined {
  return state.find((n) => !n.read);
}

export function unreadCount(state: readonly AppNotification[]): number {
  return state.reduce((count, n) => count + (n.read ? 0 : 1), 0);
}
