import type { TCreditHistoryResponse } from '@shared/types';
import { apiGet } from './client';

/** Entries per page of the credit history (the server's default page size). */
export const CREDIT_HISTORY_PAGE_SIZE = 50;

export const creditsApi = {
  /** One page of the ledger, newest first. */
  history: (page = 1, limit = CREDIT_HISTORY_PAGE_SIZE) =>
    apiGet<TCreditHistoryResponse>('/api/credits/history', { params: { page, limit } }),
};

export const creditKeys = {
  /** Prefix of every credit history query; invalidate it after the balance changes. */
  history: ['credits', 'history'] as const,
  historyPages: (limit: number) => ['credits', 'history', { limit }] as const,
  balance: ['credits', 'balance'] as const,
};
