import type {
  TAudiencePreview,
  TAudienceSendRequest,
  TContact,
  TContactAttributeDefinition,
  TContactAttributeList,
  TContactAttributeType,
  TContactBulkResponse,
  TContactHistory,
  TContactInput,
  TContactPatch,
  TContactsPage,
  TContactTagList,
  TSegment,
  TSegmentCount,
  TSegmentFilter,
} from '@shared/schemas/contacts';
import type { TCampaignAccepted } from '@shared/schemas/sending';
import { apiDelete, apiGet, apiPatch, apiPost } from './client';

export interface ContactListQuery {
  q: string;
  tag: string;
  segmentId: number | null;
}

const phonePath = (phone: string) => `/api/contacts/${encodeURIComponent(phone)}`;

/** The audience send as JSON, or as multipart with its header image (objects as JSON fields). */
export function audienceSendRequestBody(body: TAudienceSendRequest, headerImage: File | null): TAudienceSendRequest | FormData {
  if (!headerImage) return body;
  const form = new FormData();
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined) continue;
    form.append(key, typeof value === 'string' ? value : value instanceof Date ? value.toISOString() : JSON.stringify(value));
  }
  form.append('headerImage', headerImage);
  return form;
}

/** The contact book, its attributes and segments, and the app's send to an audience. */
export const contactsApi = {
  list: (query: ContactListQuery, cursor: string | null) =>
    apiGet<TContactsPage>('/api/contacts', {
      params: { ...(query.q ? { q: query.q } : {}), ...(query.tag ? { tag: query.tag } : {}), ...(query.segmentId ? { segment_id: query.segmentId } : {}), ...(cursor ? { cursor } : {}) },
    }),
  get: (phone: string) => apiGet<TContact>(phonePath(phone)),
  create: (input: TContactInput) => apiPost<TContact>('/api/contacts', input),
  update: (phone: string, patch: TContactPatch) => apiPatch<TContact>(phonePath(phone), patch),
  remove: (phone: string) => apiDelete<unknown>(phonePath(phone)),
  history: (phone: string, cursor: string | null) => apiGet<TContactHistory>(`${phonePath(phone)}/history`, { params: cursor ? { cursor } : {} }),
  bulk: (contacts: TContactInput[], existing: 'update' | 'skip') => apiPost<TContactBulkResponse>('/api/contacts/bulk', { contacts, existing }),
  attributes: async () => (await apiGet<TContactAttributeList>('/api/contacts/attributes')).data,
  defineAttribute: (name: string, type: TContactAttributeType) => apiPost<TContactAttributeDefinition>('/api/contacts/attributes', { name, type }),
  removeAttribute: (name: string) => apiDelete<unknown>(`/api/contacts/attributes/${encodeURIComponent(name)}`),
  tags: async () => (await apiGet<TContactTagList>('/api/contacts/tags')).data,
  segments: async () => (await apiGet<{ data: TSegment[] }>('/api/segments')).data,
  createSegment: (name: string, filter: TSegmentFilter) => apiPost<TSegment>('/api/segments', { name, filter }),
  updateSegment: (id: number, patch: { name?: string; filter?: TSegmentFilter }) => apiPatch<TSegment>(`/api/segments/${id}`, patch),
  removeSegment: (id: number) => apiDelete<unknown>(`/api/segments/${id}`),
  countFilter: (filter: TSegmentFilter) => apiPost<TSegmentCount>('/api/segments/count', { filter }),
  previewAudienceSend: async (body: TAudienceSendRequest) => (await apiPost<{ preview: TAudiencePreview }>('/api/whatsapp/audience-send', { ...body, dry_run: true })).preview,
  /** With a header image the send goes as multipart, as Quick Send's does. */
  audienceSend: async (body: TAudienceSendRequest, headerImage: File | null = null) =>
    (await apiPost<{ data: TCampaignAccepted & { optedOutExcluded?: number } }>('/api/whatsapp/audience-send', audienceSendRequestBody({ ...body, dry_run: false }, headerImage))).data,
};

export const contactKeys = {
  all: ['contacts'] as const,
  list: (query: ContactListQuery) => ['contacts', 'list', query] as const,
  one: (phone: string) => ['contacts', 'one', phone] as const,
  history: (phone: string) => ['contacts', 'history', phone] as const,
  attributes: ['contacts', 'attributes'] as const,
  tags: ['contacts', 'tags'] as const,
  segments: ['contacts', 'segments'] as const,
  count: (filter: TSegmentFilter) => ['contacts', 'count', filter] as const,
};
