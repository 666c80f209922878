import type { TAuthenticationTemplateRequest } from '@shared/schemas/templates';
import type { TTemplate, TTemplateListResponse, TTemplateSyncResponse } from '@shared/types';
import { apiDelete, apiGet, apiPost, apiPut } from './client';

/** GET /api/templates/:id */
export interface TTemplateResponse {
  success: true;
  data: TTemplate;
}

/** Create, update and submit answer with the stored template and what happened to it. */
export interface TTemplateMutationResponse {
  success: true;
  message?: string;
  data: TTemplate;
}

export interface TTemplateDeleteResponse {
  success: true;
  message?: string;
}

/** Spec 002 §9: the template list's page size. */
export const TEMPLATE_PAGE_SIZE = 20;

export interface TemplateListQuery {
  page: number;
  /** A status, or 'all' for every status. */
  status: string;
  /** A category, or 'all' for every category. */
  category: string;
}

/** The list's query string: 'all' filters are left out (spec 002 §7). */
export function templateListParams(query: TemplateListQuery): Record<string, string | number> {
  return {
    page: query.page,
    limit: TEMPLATE_PAGE_SIZE,
    ...(query.status !== 'all' ? { status: query.status } : {}),
    ...(query.category !== 'all' ? { category: query.category } : {}),
  };
}

/** The owner's templates (spec 002 "Template list", "Template create and edit", §7). */
export const templatesApi = {
  list: (query: TemplateListQuery) => apiGet<TTemplateListResponse>('/api/templates', { params: templateListParams(query) }),

  get: (id: number) => apiGet<TTemplateResponse>(`/api/templates/${id}`),

  /** Multipart (FormData from lib/templatePayload), so that a header file can go along. */
  create: (body: FormData) => apiPost<TTemplateMutationResponse>('/api/templates', body),

  /** Leaving headerMedia out of the body keeps the stored header file. */
  update: (id: number, body: FormData) => apiPut<TTemplateMutationResponse>(`/api/templates/${id}`, body),

  createAuthentication: (body: TAuthenticationTemplateRequest) =>
    apiPost<TTemplateMutationResponse>('/api/templates/authentication', body),

  submit: (id: number) => apiPost<TTemplateMutationResponse>(`/api/templates/${id}/submit`),

  remove: (id: number) => apiDelete<TTemplateDeleteResponse>(`/api/templates/${id}`),

  /** Reads every template of the user's WhatsApp business account from Meta (Sync from Meta). */
  sync: () => apiPost<TTemplateSyncResponse>('/api/templates/sync'),
};

export const templateKeys = {
  /** Prefix of every template query; invalidate it after any change. */
  all: ['templates'] as const,
  lists: ['templates', 'list'] as const,
  list: (query: TemplateListQuery) => ['templates', 'list', query] as const,
  detail: (id: number) => ['templates', 'detail', id] as const,
};
