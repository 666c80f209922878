import type { TSendAgainAudience } from '@shared/schemas/campaigns';
import type { TCampaignList, TTimelinePoint } from '@shared/schemas/reports';
import type { TCampaign, TCampaignAccepted, TCostPreview } from '@shared/schemas/sending';
import { campaignListParams, type CampaignAction } from '../lib/reports';
import { apiGet, apiPatch, apiPost } from './client';

interface DataResponse<T> {
  success: true;
  data: T;
}

/** pause, resume, cancel and reschedule answer the campaign as it now stands; a refused change is a 409. */
export interface CampaignActionResponse {
  success: true;
  message: string;
  data: TCampaign;
}

export interface ResendPreviewResponse {
  success: true;
  preview: TCostPreview;
}

export interface ResendAcceptedResponse {
  success: true;
  message: string;
  data: TCampaignAccepted;
}

/** Who a campaign goes to again, and with which template (the campaign's own when absent). */
export interface SendAgainChoice {
  audience: TSendAgainAudience;
  button?: string | undefined;
  template_id?: number | undefined;
}

/** GET /api/campaigns/{id}/replies: what the campaign learnt. */
export interface CampaignReplies {
  replies: number;
  reply_rate: number;
  button_taps: { text: string; taps: number; contacts: number }[];
}

export interface CampaignListQuery {
  page: number;
  /** A campaign status, or 'all'. */
  status: string;
}

export const CAMPAIGN_PAGE_SIZE = 20;

/** Days of the reports chart. */
export const TIMELINE_DAYS = 30;

/** The user's campaigns: list, live counts, state changes, resending failures, the chart. */
export const campaignsApi = {
  list: (query: CampaignListQuery) =>
    apiGet<DataResponse<TCampaignList>>('/api/campaigns', { params: campaignListParams({ ...query, limit: CAMPAIGN_PAGE_SIZE }) }),

  get: (id: number) => apiGet<DataResponse<TCampaign>>(`/api/campaigns/${id}`),

  act: (id: number, action: CampaignAction) => apiPost<CampaignActionResponse>(`/api/campaigns/${id}/${action}`),

  /** A new time (ISO with its offset) for a campaign still waiting for its own; 409 once it started. */
  reschedule: (id: number, scheduledAt: string) => apiPatch<CampaignActionResponse>(`/api/campaigns/${id}/schedule`, { scheduledAt }),

  /** "Send again to…" a group (`failed` as resend-failed): without `confirm` only the cost preview. */
  sendAgainPreview: (id: number, choice: SendAgainChoice) => apiPost<ResendPreviewResponse>(`/api/campaigns/${id}/send-again`, { ...choice, confirm: false }),

  sendAgain: (id: number, choice: SendAgainChoice) => apiPost<ResendAcceptedResponse>(`/api/campaigns/${id}/send-again`, { ...choice, confirm: true }),

  replies: (id: number) => apiGet<DataResponse<CampaignReplies>>(`/api/campaigns/${id}/replies`),

  timeline: (days: number = TIMELINE_DAYS) => apiGet<DataResponse<TTimelinePoint[]>>('/api/campaigns/timeline', { params: { days } }),
};

export const campaignKeys = {
  all: ['campaigns'] as const,
  list: (query: CampaignListQuery) => ['campaigns', 'list', query] as const,
  sendAgainPreview: (id: number | null, choice: SendAgainChoice | null) => ['campaigns', 'send-again-preview', id, choice] as const,
  replies: (id: number) => ['campaigns', 'replies', id] as const,
  timeline: (days: number) => ['campaigns', 'timeline', days] as const,
};
