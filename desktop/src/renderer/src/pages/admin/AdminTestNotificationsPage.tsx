import { Bell, CheckCircle2, Play, Repeat, Trash2, TriangleAlert, XCircle, type LucideIcon } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { NOTIFICATIONS } from '@shared/constants';
import { fillMessage, messages } from '@shared/messages';
import { formatIndianNumber } from '@shared/money';
import { StatGrid, statTints, type Stat } from '../../components/admin/StatCards';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card';
import type { NotificationInput, NotificationType } from '../../lib/notifications';
import { useNotificationStore } from '../../stores/notificationStore';

const text = messages.notificationTest;
/** Pause between the steps of the sequential and campaign demos. */
const STEP_MS = 800;

const typeButtons: { type: NotificationType; label: string; message: string; icon: LucideIcon }[] = [
  { type: 'success', label: text.success, message: messages.logs.sampleSuccess, icon: CheckCircle2 },
  { type: 'error', label: text.error, message: messages.logs.sampleError, icon: XCircle },
  { type: 'warning', label: text.warning, message: messages.logs.sampleWarning, icon: TriangleAlert },
  { type: 'info', label: text.info, message: messages.logs.sampleInfo, icon: Bell },
];

/** /admin/test-notifications (spec 001): every notification style, with the store's live counts. */
export function AdminTestNotificationsPage() {
  const notifications = useNotificationStore((state) => state.notifications);
  const storeNotify = useNotificationStore((state) => state.notify);
  const clear = useNotificationStore((state) => state.clear);
  const dismiss = useNotificationStore((state) => state.dismiss);
  const markRead = useNotificationStore((state) => state.markRead);
  const [sampleIndex, setSampleIndex] = useState(0);
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);

  useEffect(() => () => timers.current.forEach(clearTimeout), []);

  // Spec 001: on this page success and info dismiss after 6 seconds.
  const notify = (input: NotificationInput) => storeNotify({ ...input, duration: NOTIFICATIONS.testPageAutoDismissMs });
  const later = (steps: readonly NotificationInput[]) => {
    steps.forEach((step, index) => {
      timers.current.push(setTimeout(() => notify(step), index * STEP_MS));
    });
  };

  const handleSample = () => {
    const sample = text.samples[sampleIndex % text.samples.length]!;
    notify({ type: sample.type, title: sample.title, message: sample.message });
    setSampleIndex((index) => (index + 1) % text.samples.length);
  };
  const handleSequential = () =>
    later(
      Array.from({ length: 5 }, (_, index) => ({
        type: (['info', 'success', 'warning', 'info', 'success'] as const)[index]!,
        message: fillMessage(text.sequentialMessage, { index: index + 1, count: 5 }),
      })),
    );
  const handleCampaignFlow = () => later(text.flow.map((step) => ({ type: step.type, title: step.title, message: step.message })));
  const handleClear = () => {
    timers.current.forEach(clearTimeout);
    timers.current = [];
    clear();
  };

  const counts: Stat[] = [
    { label: text.total, value: formatIndianNumber(notifications.length), icon: Bell, tint: statTints.sky },
    { label: text.successCount, value: formatIndianNumber(notifications.filter((n) => n.type === 'success').length), icon: CheckCircle2, tint: statTints.emerald },
    { label: text.errorCount, value: formatIndianNumber(notifications.filter((n) => n.type === 'error').length), icon: XCircle, tint: statTints.amber },
    { label: text.unread, value: formatIndianNumber(notifications.filter((n) => !n.read).length), icon: Bell, tint: statTints.violet },
  ];

  return (
    <div className="flex flex-col gap-6">
      <div>
        <h2 className="text-2xl font-bold tracking-tight">{text.title}</h2>
        <p className="text-sm text-slate-500 dark:text-slate-400">{text.subtitle}</p>
      </div>
      <StatGrid stats={counts} isLoading={false} />
      <Card>
        <CardContent className="flex flex-col gap-4 p-5">
          <div className="flex flex-wrap gap-3">
            {typeButtons.map(({ type, label, message, icon: Icon }) => (
              <Button key={type} variant="outline" onClick={() => notify({ type, message })}>
                <Icon className="size-4" aria-hidden="true" />
                {label}
              </Button>
            ))}
          </div>
          <div className="flex flex-wrap gap-3">
            <Button variant="secondary" onClick={handleSample}>
              <Repeat className="size-4" aria-hidden="true" />
              {fillMessage(text.cycle, { index: sampleIndex + 1, count: text.samples.length })}
            </Button>
            <Button variant="secondary" onClick={handleSequential}>
              {text.sequential}
            </Button>
            <Button variant="secondary" onClick={handleCampaignFlow}>
              <Play className="size-4" aria-hidden="true" />
              {text.campaignFlow}
            </Button>
            <Button variant="destructive" onClick={handleClear}>
              <Trash2 className="size-4" aria-hidden="true" />
              {text.clearAll}
            </Button>
          </div>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle className="text-base">{text.current}</CardTitle>
        </CardHeader>
        <CardContent>
          {notifications.length === 0 ? (
            <p className="text-sm text-slate-500 dark:text-slate-400">{text.none}</p>
          ) : (
            <ul className="flex flex-col gap-2" aria-label={text.current}>
              {notifications.map((n) => (
                <li key={n.id} className="flex items-start justify-between gap-3 rounded-md border border-slate-200 p-3 text-sm dark:border-slate-800" data-type={n.type}>
                  <div className="min-w-0">
                    <p className="font-medium">
                      <span className="mr-2 uppercase text-xs text-slate-500 dark:text-slate-400">{n.type}</span>
                      {n.title ?? ''}
                    </p>
                    <p className="text-slate-600 dark:text-slate-300">{n.message}</p>
                  </div>
                  <div className="flex shrink-0 gap-1">
                    {!n.read ? (
                      <Button size="sm" variant="ghost" onClick={() => markRead(n.id)}>
                        {messages.notifications.markRead}
                      </Button>
                    ) : null}
                    <Button size="sm" variant="ghost" onClick={() => dismiss(n.id)}>
                      {messages.notifications.dismiss}
                    </Button>
                  </div>
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
