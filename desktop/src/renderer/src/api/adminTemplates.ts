import type { AxiosResponseTransformer } from 'axios';
import type { TAdminTemplateQueueQuery, TTemplateStatusRequest } from '@shared/schemas/templates';
import type { TAdminPendingTemplatesResponse, TAdminTemplateQueueResponse, TTemplate, TTemplateStats, TTemplateSyncResponse } from '@shared/types';
import { apiGet, apiPost, apiPut, http } from './client';

/** GET /api/admin/users/{id}/templates */
export interface TAdminUserTemplatesResponse {
  success: true;
  templates: TTemplate[];
  stats: TTemplateStats;
}

/** PUT /api/admin/templates/{templateId}/status */
export interface TTemplateStatusResponse {
  success: true;
  message: string;
  data: TTemplate;
}

/**
 * Spec 001 §7-§8: the status call's error text is read from the answer's `message`, where the
 * client otherwise reads `error`. For that one call a failed answer's `message` is put in
 * `error`'s place before the shared error mapping sees it, so the rest of the client (401
 * handling, codes, fallbacks) stays as it is.
 */
export function messageAsError(data: unknown, status: number | undefined): unknown {
  if (status === undefined || status < 400) return data;
  if (typeof data !== 'object' || data === null || !('message' in data)) return data;
  const { message } = data;
  return typeof message === 'string' && message.trim() ? { ...data, error: message } : data;
}

function withMessageAsError(): AxiosResponseTransformer[] {
  const defaults = http.defaults.transformResponse;
  const parse = defaults === undefined ? [] : Array.isArray(defaults) ? defaults : [defaults];
  // After the default JSON parsing, which is what turns the body into an object.
  return [...parse, (data, _headers, status) => messageAsError(data, status)];
}

/** The admin's view of a user's templates (spec 001 "Per-user templates"). */
export const adminTemplatesApi = {
  userTemplates: (userId: number) => apiGet<TAdminUserTemplatesResponse>(`/api/admin/users/${userId}/templates`),
  /** Sync from Meta for this user. */
  syncUserTemplates: (userId: number) => apiPost<TTemplateSyncResponse>(`/api/admin/users/${userId}/templates/sync`),
  /** The review queue across users. */
  queue: (query: TAdminTemplateQueueQuery) => apiGet<TAdminTemplateQueueResponse>('/api/admin/templates', { params: query }),
  pendingCount: () => apiGet<TAdminPendingTemplatesResponse>('/api/admin/templates/pending-count'),
  setStatus: (templateId: number, body: TTemplateStatusRequest) =>
    apiPut<TTemplateStatusResponse>(`/api/admin/templates/${templateId}/status`, body, {
      transformResponse: withMessageAsError(),
    }),
};

export const adminTemplateKeys = {
  all: ['admin', 'templates'] as const,
  user: (userId: number) => ['admin', 'templates', 'user', userId] as const,
  queue: (query: TAdminTemplateQueueQuery) => ['admin', 'templates', 'queue', query] as const,
  pendingCount: ['admin', 'templates', 'pending-count'] as const,
};
