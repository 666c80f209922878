import type { TApiKeyListResponse, TCreateApiKeyResponse, TTemplateInfoResponse } from '@shared/apiKeys';
import { PUBLIC_API } from '@shared/constants';
import { USABLE_TEMPLATE_STATUSES, type TemplateStatus } from '@shared/templates';
import type { TTemplate } from '@shared/types';
import { networkErrorResult, SEND_PATH, type ConsoleResult } from '../lib/apiConsole';
import { apiDelete, apiGet, apiPost } from './client';

interface DataResponse<T> {
  success: true;
  data: T;
}

/** The API Management screen's calls (spec 002 §7 and the key endpoints). */
export const apiKeysApi = {
  list: () => apiGet<TApiKeyListResponse>('/api/keys'),

  create: (name: string) => apiPost<TCreateApiKeyResponse>('/api/keys', { name }),

  revoke: (id: number) => apiDelete<{ success: true; message: string }>(`/api/keys/${id}`),

  /** Spec 002 §7: the API screen asks without parameters and keeps approved or active ones. */
  approvedTemplates: async (): Promise<TTemplate[]> => {
    const response = await apiGet<DataResponse<TTemplate[]>>('/api/whatsapp/templates');
    return response.data.filter((template) => USABLE_TEMPLATE_STATUSES.includes(template.status as TemplateStatus));
  },

  templateInfo: (username: string, templatename: string) =>
    apiGet<TTemplateInfoResponse>(`/api/send/template-info/${encodeURIComponent(username)}/${encodeURIComponent(templatename)}`),
};

export const apiKeyQueryKeys = {
  keys: ['api-keys'] as const,
  templates: ['api-keys', 'approved-templates'] as const,
  templateInfo: (username: string, templatename: string) => ['api-keys', 'template-info', username, templatename] as const,
};

/**
 * The console's test call, made the way an integrator makes it: the API key as a bearer token,
 * no session cookie, and not through the app's client (whose 401 handler would sign the user
 * out when a test key is wrong).
 */
export async function sendTestRequest(baseUrl: string, apiKey: string, payload: Record<string, string>): Promise<ConsoleResult> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json' };
  if (apiKey.trim()) headers.Authorization = `Bearer ${apiKey.trim()}`;
  let response: Response;
  try {
    response = await fetch(`${baseUrl}${SEND_PATH}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(payload),
      credentials: 'omit',
      signal: AbortSignal.timeout(PUBLIC_API.sampleTimeoutSeconds * 1000),
    });
  } catch {
    return networkErrorResult();
  }
  const text = await response.text().catch(() => '');
  let body: unknown = text;
  try {
    body = text ? (JSON.parse(text) as unknown) : '';
  } catch {
    // A body that is not JSON (a proxy's error page) is shown as it came.
  }
  return { status: response.status, body };
}
