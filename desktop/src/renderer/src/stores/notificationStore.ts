import { create } from 'zustand';
import {
  createNotification,
  notificationsReducer,
  type AppNotification,
  type NotificationEvent,
  type NotificationInput,
} from '../lib/notifications';

interface NotificationState {
  notifications: AppNotification[];
  /** Adds one and answers its id; success and info remove themselves after their lifetime. */
  notify: (input: NotificationInput) => string;
  markRead: (id: string) => void;
  markAllRead: () => void;
  dismiss: (id: string) => void;
  clear: () => void;
}

const timers = new Map<string, ReturnType<typeof setTimeout>>();
let sequence = 0;

function cancelTimer(id: string): void {
  const timer = timers.get(id);
  if (timer) clearTimeout(timer);
  timers.delete(id);
}

export const useNotificationStore = create<NotificationState>()((set) => {
  const apply = (event: NotificationEvent) =>
    set((state) => ({ notifications: notificationsReducer(state.notifications, event) }));

  return {
    notifications: [],
    notify: (input) => {
      sequence += 1;
      const id = `n-${Date.now()}-${sequence}`;
      const notification = createNotification(input, id, Date.now());
      apply({ type: 'add', notification });
      if (notification.autoRemoveMs !== null) {
        timers.set(
          id,
          setTimeout(() => {
            timers.delete(id);
            apply({ type: 'remove', id });
          }, notification.autoRemoveMs),
        );
      }
      return id;
    },
    markRead: (id) => apply({ type: 'markRead', id }),
    markAllRead: () => apply({ type: 'markAllRead' }),
    dismiss: (id) => {
      cancelTimer(id);
      apply({ type: 'remove', id });
    },
    clear: () => {
      for (const id of [...timers.keys()]) cancelTimer(id);
      apply({ type: 'clear' });
    },
  };
});
