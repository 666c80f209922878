import { WALLET_HISTORY_MAX_PAGE_SIZE, WALLET_HISTORY_PAGE_SIZE } from '@shared/schemas/wallet';
import type { TWalletEntryKind, TWalletHistoryEntry, TWalletHistoryResponse } from '@shared/walletHistory';
import { apiGet, http } from './client';

export interface WalletHistoryFilters {
  kind: TWalletEntryKind | 'all';
  /** IST days, YYYY-MM-DD, or '' for open-ended. */
  from: string;
  to: string;
}

export const EMPTY_WALLET_FILTERS: WalletHistoryFilters = { kind: 'all', from: '', to: '' };

function historyParams(filters: WalletHistoryFilters, cursor: string | null, limit: number): Record<string, string | number> {
  return {
    limit,
    ...(cursor ? { cursor } : {}),
    ...(filters.kind !== 'all' ? { kind: filters.kind } : {}),
    ...(filters.from ? { from: filters.from } : {}),
    ...(filters.to ? { to: filters.to } : {}),
  };
}

/** Stops an export that would never end (a server answering the same cursor forever). */
const EXPORT_MAX_PAGES = 1_000;

export const walletApi = {
  history: (filters: WalletHistoryFilters, cursor: string | null, limit = WALLET_HISTORY_PAGE_SIZE) =>
    apiGet<TWalletHistoryResponse>('/api/wallet/history', { params: historyParams(filters, cursor, limit) }),

  /** Every entry the filters match, newest first, in the largest pages the server gives. */
  async allEntries(filters: WalletHistoryFilters): Promise<TWalletHistoryEntry[]> {
    const entries: TWalletHistoryEntry[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < EXPORT_MAX_PAGES; page += 1) {
      const response: TWalletHistoryResponse = await walletApi.history(filters, cursor, WALLET_HISTORY_MAX_PAGE_SIZE);
      entries.push(...response.entries);
      if (!response.nextCursor || response.nextCursor === cursor) break;
      cursor = response.nextCursor;
    }
    return entries;
  },

  /** The top-up's PDF receipt and the name the server gives it. */
  async receipt(receiptUrl: string): Promise<{ blob: Blob; filename: string }> {
    const response = await http.get<Blob>(receiptUrl, { responseType: 'blob' });
    const header: unknown = response.headers['content-disposition'];
    const filename = typeof header === 'string' ? /filename="([^"]+)"/.exec(header)?.[1] : undefined;
    return { blob: response.data, filename: filename ?? 'receipt.pdf' };
  },
};

export const walletKeys = {
  history: (filters: WalletHistoryFilters) => ['wallet', 'history', filters] as const,
  all: ['wallet'] as const,
};
