import type { TAdminNumberHealth, TNumberHealth, TReconciliationResponse } from '@shared/schemas/numberHealth';
import { apiGet, apiPost } from './client';

/** Numbers' health at Meta and the reconciliation with Meta's bill (docs/reports.md "Meta's bill"). */
export const numberHealthApi = {
  adminNumbers: () => apiGet<{ success: true; numbers: TAdminNumberHealth[] }>('/api/admin/numbers/health'),
  adminRefresh: (id: number) => apiPost<{ success: true; message: string; health: TNumberHealth }>(`/api/admin/numbers/${id}/health/refresh`),
  ownRefresh: (id: number) => apiPost<{ success: true; message: string; health: TNumberHealth }>(`/api/whatsapp/numbers/${id}/health/refresh`),
  adminReconciliation: (range: { from: string; to: string; userId?: number | undefined }) =>
    apiGet<TReconciliationResponse>('/api/admin/reconciliation', { params: { from: range.from, to: range.to, ...(range.userId ? { userId: range.userId } : {}) } }),
  ownReconciliation: (range: { from: string; to: string }) => apiGet<TReconciliationResponse>('/api/reports/reconciliation', { params: range }),
};

export const numberHealthKeys = {
  adminNumbers: () => ['admin', 'numbers', 'health'] as const,
  reconciliation: (scope: 'admin' | 'own', from: string, to: string, userId?: number) => ['reconciliation', scope, from, to, userId ?? null] as const,
};
