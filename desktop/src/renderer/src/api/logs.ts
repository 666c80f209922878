import type { TLogCleanupResponse, TLogCleanupStatsResponse } from '@shared/schemas/logs';
import { apiGet, apiPost } from './client';

/** Log Management (spec 001 §7): admin only. */
export const logsApi = {
  stats: () => apiGet<TLogCleanupStatsResponse>('/api/logs/cleanup/stats'),
  cleanup: () => apiPost<TLogCleanupResponse>('/api/logs/cleanup'),
};

export const logsKeys = {
  stats: ['logs', 'cleanup', 'stats'] as const,
};
