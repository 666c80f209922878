import { Bell } from 'lucide-react';
import { fillMessage, messages } from '@shared/messages';
import { STREAM_EVENTS, type TNotification, type TNotificationList } from '@shared/schemas/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { notificationKeys, notificationsApi } from '../../api/notifications';
import { useLiveEvent } from '../../hooks/useLiveStream';
import { cn } from '../../lib/cn';
import { platform } from '../../platform';
import { Button } from '../ui/button';
import { DropdownMenu, DropdownMenuContent, DropdownMenuLabel, DropdownMenuSeparator, DropdownMenuTrigger } from '../ui/dropdown-menu';

const text = messages.notifications;
/** The desktop app sends a bearer token, which EventSource cannot carry: it refreshes this often instead. */
const DESKTOP_REFRESH_MS = 60_000;

const dots: Record<TNotification['type'], string> = {
  success: 'bg-emerald-500',
  info: 'bg-sky-500',
  warning: 'bg-amber-500',
  error: 'bg-red-500',
};

/**
 * Live notifications from the tab's stream (hooks/useLiveStream; the browser reconnects by itself,
 * sending the last id it saw): each event is put straight into the cached list.
 */
function useNotificationStream(): void {
  const queryClient = useQueryClient();
  useLiveEvent<TNotification>(STREAM_EVENTS.notification, (notification) => {
    queryClient.setQueryData<TNotificationList>(notificationKeys.list, (current) => {
      if (!current) return current;
      if (current.notifications.some((n) => n.id === notification.id)) return current;
      return { ...current, notifications: [notification, ...current.notifications], unreadCount: current.unreadCount + (notification.read ? 0 : 1) };
    });
  });
}

/** The header's bell: unread count, the kept notifications, mark read and clear. */
export function NotificationBell() {
  const queryClient = useQueryClient();
  useNotificationStream();
  const list = useQuery({
    queryKey: notificationKeys.list,
    queryFn: notificationsApi.list,
    refetchOnWindowFocus: false,
    refetchInterval: platform.kind === 'web' ? false : DESKTOP_REFRESH_MS,
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: notificationKeys.list });
  const markRead = useMutation({ mutationFn: (ids?: number[]) => notificationsApi.markRead(ids), onSuccess: refresh });
  const clear = useMutation({ mutationFn: notificationsApi.clear, onSuccess: refresh });

  const notifications = list.data?.notifications ?? [];
  const unread = list.data?.unreadCount ?? 0;
  const label = unread > 0 ? fillMessage(text.bellLabelUnread, { count: unread }) : text.bellLabel;

  return (
    // Opening the list reads it again: a campaign's notice is rendered from its current counts
    // (delivery reports and refunds arrive after it completes), so the cached text may be behind.
    <DropdownMenu onOpenChange={(open) => (open ? refresh() : undefined)}>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" className="relative" aria-label={label} data-testid="notification-bell">
          <Bell aria-hidden="true" />
          {unread > 0 ? (
            <span className="absolute -right-0.5 -top-0.5 min-w-5 rounded-full bg-red-600 px-1 text-center text-[11px] font-semibold leading-5 text-white" data-testid="notification-unread">
              {unread > 99 ? '99+' : unread}
            </span>
          ) : null}
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-80 p-0">
        <div className="flex items-center justify-between gap-2 px-3 py-2">
          <DropdownMenuLabel className="p-0">{text.bellLabel}</DropdownMenuLabel>
          <div className="flex gap-1">
            <Button size="sm" variant="ghost" disabled={unread === 0 || markRead.isPending} onClick={() => markRead.mutate(undefined)}>
              {text.markAllRead}
            </Button>
            <Button size="sm" variant="ghost" disabled={notifications.length === 0 || clear.isPending} onClick={() => clear.mutate()}>
              {text.clearAll}
            </Button>
          </div>
        </div>
        <DropdownMenuSeparator className="my-0" />
        {notifications.length === 0 ? (
          <p className="px-3 py-6 text-center text-sm text-slate-500 dark:text-slate-400">{text.empty}</p>
        ) : (
          <ul className="max-h-96 overflow-y-auto" aria-label={text.bellLabel}>
            {notifications.map((n) => (
              <li key={n.id} className={cn('flex gap-2 border-b border-slate-100 px-3 py-2 text-sm last:border-0 dark:border-slate-800', n.read ? 'opacity-70' : '')}>
                <span className={cn('mt-1.5 size-2 shrink-0 rounded-full', dots[n.type])} aria-hidden="true" />
                <div className="min-w-0 flex-1">
                  <p className={cn('truncate', n.read ? 'font-normal' : 'font-semibold')}>{n.title}</p>
                  <p className="break-words text-slate-600 dark:text-slate-300">{n.message}</p>
                  <p className="mt-0.5 text-xs text-slate-500 dark:text-slate-400">{new Date(n.createdAt).toLocaleString('en-IN', { dateStyle: 'medium', timeStyle: 'short' })}</p>
                </div>
                {!n.read ? (
                  <Button size="sm" variant="ghost" className="shrink-0" onClick={() => markRead.mutate([n.id])}>
                    {text.markRead}
                  </Button>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
