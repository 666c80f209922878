import type { TNotificationList } from '@shared/schemas/notifications';
import { apiDelete, apiGet, apiPost, apiPut } from './client';

/** The signed-in person's kept notifications. */
export const notificationsApi = {
  list: () => apiGet<TNotificationList>('/api/notifications'),
  markRead: (ids?: number[]) => apiPost<{ success: true; unreadCount: number }>('/api/notifications/read', ids ? { ids } : {}),
  clear: () => apiDelete<{ success: true }>('/api/notifications'),
  remove: (id: number) => apiDelete<{ success: true; unreadCount: number }>(`/api/notifications/${id}`),
  lowBalance: () => apiGet<{ success: true; thresholdRupees: number }>('/api/notifications/low-balance'),
  setLowBalance: (thresholdRupees: number) => apiPut<{ success: true; thresholdRupees: number }>('/api/notifications/low-balance', { thresholdRupees }),
};

export const notificationKeys = {
  list: ['notifications'] as const,
  lowBalance: ['notifications', 'low-balance'] as const,
};
