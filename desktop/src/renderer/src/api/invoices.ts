import type { TInvoiceRegisterResponse, TTaxDocumentsResponse } from '@shared/types';
import { apiGet, http } from './client';

/** A file the server answers with a Content-Disposition name (PDF or CSV). */
async function download(url: string, params: Record<string, string> = {}, fallbackName = 'document'): Promise<{ blob: Blob; filename: string }> {
  const response = await http.get<Blob>(url, { params, responseType: 'blob' });
  const header: unknown = response.headers['content-disposition'];
  const filename = typeof header === 'string' ? /filename="([^"]+)"/.exec(header)?.[1] : undefined;
  return { blob: response.data, filename: filename ?? fallbackName };
}

/** Where one user's tax documents live: the user's own wallet, or an administrator's view of it. */
export interface TaxDocumentsSource {
  key: readonly unknown[];
  listUrl: string;
  statementUrl: string;
}

export const ownTaxDocuments: TaxDocumentsSource = { key: ['invoices', 'own'], listUrl: '/api/wallet/invoices', statementUrl: '/api/wallet/statement' };

export function userTaxDocuments(userId: number): TaxDocumentsSource {
  return { key: ['invoices', 'user', userId], listUrl: `/api/admin/users/${userId}/invoices`, statementUrl: `/api/admin/users/${userId}/statement` };
}

export const invoicesApi = {
  list: (source: TaxDocumentsSource, cursor: string | null) => apiGet<TTaxDocumentsResponse>(source.listUrl, { params: cursor ? { cursor } : {} }),
  download,
  register: (month: string) => apiGet<TInvoiceRegisterResponse>('/api/admin/invoices', { params: { month, format: 'json' } }),
};

export const invoiceKeys = {
  all: ['invoices'] as const,
  register: (month: string) => ['invoices', 'register', month] as const,
};
