import type { TImportSuppressionsResult, TOptOutKeywordsResponse, TReplyFlag, TSuppression, TSuppressionsPage } from '@shared/schemas/suppressions';
import { apiDelete, apiGet, apiPost, apiPut, http } from './client';

/** The suppression list, the account's opt-out keywords and the replies flagged for a decision. */
export const suppressionsApi = {
  list: (q: string, cursor: string | null) => apiGet<TSuppressionsPage>('/api/suppressions', { params: { ...(q ? { q } : {}), ...(cursor ? { cursor } : {}) } }),
  add: (phone: string, reason: string) => apiPost<TSuppression>('/api/suppressions', { phone, ...(reason ? { reason } : {}) }),
  remove: (phone: string) => apiDelete<unknown>(`/api/suppressions/${encodeURIComponent(phone)}`),
  importCsv: (csv: string) => apiPost<TImportSuppressionsResult>('/api/suppressions/import', { csv }),
  exportCsv: async () => (await http.get<Blob>('/api/suppressions/export', { responseType: 'blob' })).data,
  keywords: () => apiGet<TOptOutKeywordsResponse>('/api/suppressions/keywords'),
  setKeywords: (keywords: string[] | null) => apiPut<TOptOutKeywordsResponse>('/api/suppressions/keywords', { keywords }),
  flags: async () => (await apiGet<{ data: TReplyFlag[] }>('/api/suppressions/flags')).data,
  decide: (id: number, decision: 'suppress' | 'dismiss') => apiPost<unknown>(`/api/suppressions/flags/${id}/decide`, { decision }),
};

export const suppressionKeys = {
  all: ['suppressions'] as const,
  list: (q: string) => ['suppressions', 'list', q] as const,
  keywords: ['suppressions', 'keywords'] as const,
  flags: ['suppressions', 'flags'] as const,
};
