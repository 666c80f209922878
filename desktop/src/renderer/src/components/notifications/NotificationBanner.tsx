import { AlertCircle, CheckCircle2, Info, TriangleAlert, X } from 'lucide-react';
import { messages } from '@shared/messages';
import { cn } from '../../lib/cn';
import { visibleNotification, type NotificationType } from '../../lib/notifications';
import { useNotificationStore } from '../../stores/notificationStore';
import { Button } from '../ui/button';

const looks: Record<NotificationType, { Icon: typeof Info; className: string }> = {
  success: {
    Icon: CheckCircle2,
    className: 'border-emerald-200 bg-emerald-50 text-emerald-900 dark:border-emerald-500/30 dark:bg-emerald-950 dark:text-emerald-200',
  },
  info: {
    Icon: Info,
    className: 'border-sky-200 bg-sky-50 text-sky-900 dark:border-sky-500/30 dark:bg-sky-950 dark:text-sky-200',
  },
  warning: {
    Icon: TriangleAlert,
    className: 'border-amber-200 bg-amber-50 text-amber-900 dark:border-amber-500/30 dark:bg-amber-950 dark:text-amber-200',
  },
  error: {
    Icon: AlertCircle,
    className: 'border-red-200 bg-red-50 text-red-900 dark:border-red-500/30 dark:bg-red-950 dark:text-red-200',
  },
};

/** The notification area of the layout: only the first unread notification shows (spec 000 §4.5). */
export function NotificationBanner() {
  const notification = useNotificationStore((state) => visibleNotification(state.notifications));
  const dismiss = useNotificationStore((state) => state.dismiss);
  if (!notification) return null;
  const { Icon, className } = looks[notification.type];
  return (
    <div className="pointer-events-none fixed right-4 top-20 z-40 flex w-[min(24rem,calc(100vw-2rem))] justify-end">
      <div
        role={notification.type === 'error' || notification.type === 'warning' ? 'alert' : 'status'}
        className={cn('pointer-events-auto flex w-full items-start gap-3 rounded-lg border p-3 shadow-lg', className)}
      >
        <Icon className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
        <div className="min-w-0 flex-1 text-sm">
          {notification.title ? <p className="font-semibold">{notification.title}</p> : null}
          <p>{notification.message}</p>
          {notification.action ? (
            <Button variant="link" size="sm" className="h-auto px-0" onClick={notification.action.onClick}>
              {notification.action.label}
            </Button>
          ) : null}
        </div>
        <button
          type="button"
          onClick={() => dismiss(notification.id)}
          className="rounded p-0.5 opacity-70 hover:opacity-100"
        >
          <X className="size-4" aria-hidden="true" />
          <span className="sr-only">{messages.app.dismiss}</span>
        </button>
      </div>
    </div>
  );
}
