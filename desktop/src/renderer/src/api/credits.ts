import { apiGet } from './client';

/** One ledger entry as `GET /api/credits/history` presents it. */
export interface TCreditHistoryEntry {
  id: number | string;
  /** A code; codes containing ADD are credits, every other code is a debit. */
  type: string;
  description: string;
  timestamp: string;
  /** Rupees, signed, 2 decimals. */
  amount: number;
  templateName?: string | null;
  templateCategory?: string | null;
}

export interface TCreditHistoryResponse {
  success: true;
  history: TCreditHistoryEntry[];
}

export const creditsApi = {
  history: () => apiGet<TCreditHistoryResponse>('/api/credits/history'),
};

export const creditKeys = {
  history: ['credits', 'history'] as const,
  balance: ['credits', 'balance'] as const,
};
