import { hashKey, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { TNotificationList } from '@shared/schemas/notifications';
import { notificationKeys } from '../api/notifications';
import { createCampaignAlerts } from '../lib/campaignAlerts';
import { platform } from '../platform';

/**
 * Turns campaign endings in the signed-in person's notification list into system notifications
 * (lib/campaignAlerts.ts). Watches the list the bell keeps in the query cache, so it neither
 * fetches nor connects on its own. `userId` starts a new baseline when someone else signs in.
 */
export function useCampaignAlerts(userId: number | null): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const alerts = createCampaignAlerts((title, body) => void platform.notify(title, body));
    const read = () => {
      const list = queryClient.getQueryData<TNotificationList>(notificationKeys.list);
      if (list) alerts.observe(list.notifications);
    };
    read();
    const listHash = hashKey(notificationKeys.list);
    return queryClient.getQueryCache().subscribe((event) => {
      if (event.type === 'updated' && event.query.queryHash === listHash) read();
    });
  }, [queryClient, userId]);
}
