import type {
  TCampaign,
  TCampaignAccepted,
  TCostPreview,
  TSenderNumber,
} from '@shared/schemas/sending';
import type { TMyPricingResponse, TPriceDefaultsResponse, TTemplate, TTemplateDetails } from '@shared/types';
import { BULK_CUSTOMIZE_PATH, customSendPath } from '../lib/sending/customize';
import { BULK_QUICK_PATH, quickSendPath } from '../lib/sending/quickSend';
import { SEND_SCREEN } from '../lib/sending/setup';
import { apiGet, apiPost, apiUpload } from './client';

export interface TLanguage {
  code: string;
  name: string;
}

interface DataResponse<T> {
  success: true;
  data: T;
}

/** POST /api/send/cost-preview: the first 100 recipients and the full count. */
export interface CostPreviewBody {
  username?: string;
  templatename: string;
  language: string;
  recipients: string[];
  recipientCount: number;
}

/**
 * The cost preview of one exact send: the send call itself with `dry_run`, so the server screens
 * every recipient as it will when accepting (the quoted cost is the charged cost).
 */
export type SendPreviewRequest = { kind: 'quick'; body: QuickSendBody; recipientCount: number } | { kind: 'custom'; body: CustomSendBody };

export interface CostPreviewResponse {
  success: true;
  preview: TCostPreview;
}

/** POST /api/whatsapp/import-recipients */
export interface TRecipientImport {
  valid_numbers: string[];
  valid_count: number;
  invalid_count: number;
}

/** The quick send payload (spec 002 §7); `variables` is keyed by the index inside the braces. */
interface QuickSendFields {
  phone_number_id: string;
  template_name: string;
  language: string;
  variables: Record<string, string>;
  campaign_name: string;
  /** Send later: ISO with the +05:30 offset; absent to send now. */
  scheduledAt?: string;
  /** Keep each row's mapped columns as its contact's attributes (written after acceptance). */
  rememberColumns?: boolean;
}

/** The numbers typed or pasted, or the column of a completed upload holding them. */
export type QuickSendBody = QuickSendFields & ({ recipients_text: string } | { uploadId: string; recipientColumn: string });

export interface QuickSendResponse {
  success: true;
  message?: string;
  data: TCampaignAccepted;
}

/** The custom send payload (spec 002 §3); `variableMappings` holds numeric variables only. */
interface CustomSendFields {
  templateName: string;
  language: string;
  phoneNumberId: string;
  recipientColumn: string;
  variableMappings: Record<string, string>;
  campaignName?: string;
  /** Send later: ISO with the +05:30 offset; absent to send now. */
  scheduledAt?: string;
}

/** The rows themselves, or a completed upload of the checked rows read with the same mapping. */
export type CustomSendBody = CustomSendFields & ({ data: Record<string, unknown>[] } | { uploadId: string });

/** A send from an upload always goes to the bulk endpoint, which streams the rows. */
function customPath(body: CustomSendBody): string {
  return 'uploadId' in body ? BULK_CUSTOMIZE_PATH : customSendPath(body.data.length);
}

function quickPath(body: QuickSendBody, recipientCount: number): string {
  return 'uploadId' in body ? BULK_QUICK_PATH : quickSendPath(recipientCount);
}

/** Both custom endpoints carry the accepted campaign; the bulk one adds its own counts. */
export interface CustomSendResponse {
  success: true;
  message?: string;
  sent_count?: number;
  data: TCampaignAccepted & { successful_sends?: number; failed_sends?: number };
}

function fileForm(file: File): FormData {
  const form = new FormData();
  form.append('file', file);
  return form;
}

/**
 * Multipart when a header image goes along (spec §7): other fields as strings, `variables` as
 * a JSON string. JSON otherwise.
 */
export function quickSendRequestBody(body: QuickSendBody, headerImage: File | null): QuickSendBody | FormData {
  if (!headerImage) return body;
  const form = new FormData();
  form.append('phone_number_id', body.phone_number_id);
  form.append('template_name', body.template_name);
  form.append('language', body.language);
  if ('uploadId' in body) {
    form.append('uploadId', body.uploadId);
    form.append('recipientColumn', body.recipientColumn);
  } else {
    form.append('recipients_text', body.recipients_text);
  }
  form.append('variables', JSON.stringify(body.variables));
  form.append('campaign_name', body.campaign_name);
  if (body.scheduledAt) form.append('scheduledAt', body.scheduledAt);
  form.append('headerImage', headerImage);
  return form;
}

/** The sending screens' calls (spec 002 §7 and docs/decisions/2026-11-21-sending-rules.md). */
export const sendingApi = {
  numbers: () => apiGet<DataResponse<TSenderNumber[]>>('/api/whatsapp/numbers'),

  /** A number Meta had stopped sends again; the campaigns paused for it resume. */
  resumeNumber: (id: number) => apiPost<DataResponse<{ resumed_campaign_ids: number[] }> & { message: string }>(`/api/whatsapp/numbers/${id}/resume-sending`),

  languages: () => apiGet<DataResponse<TLanguage[]>>('/api/whatsapp/languages'),

  templates: (language: string) =>
    apiGet<DataResponse<TTemplate[]>>('/api/whatsapp/templates', { params: { language, exclude_auth: 'true' } }),

  templateDetails: (templateName: string, language: string) =>
    apiPost<DataResponse<TTemplateDetails>>('/api/whatsapp/template-details', { template_name: templateName, language }),

  myPricing: () => apiGet<TMyPricingResponse>('/api/send/my-pricing'),

  priceDefaults: () => apiGet<TPriceDefaultsResponse>('/api/admin/pricing/defaults'),

  costPreview: (body: CostPreviewBody) => apiPost<CostPreviewResponse>('/api/send/cost-preview', body),

  /** The dry run of a quick or personalised send: its exact cost and every row it would skip. */
  sendPreview: (request: SendPreviewRequest) =>
    request.kind === 'quick'
      ? apiPost<CostPreviewResponse>(quickPath(request.body, request.recipientCount), { ...request.body, dry_run: true }, { timeout: SEND_SCREEN.sendTimeoutMs })
      : apiPost<CostPreviewResponse>(customPath(request.body), { ...request.body, dry_run: true }, { timeout: SEND_SCREEN.sendTimeoutMs }),

  importRecipients: (file: File, onProgress?: (fraction: number) => void) =>
    apiUpload<DataResponse<TRecipientImport>>('/api/whatsapp/import-recipients', fileForm(file), {
      onProgress,
      timeout: SEND_SCREEN.uploadTimeoutMs,
    }),

  /** quick-send for up to 50 recipients, bulk-quick-send beyond (docs/decisions/2026-11-21-sending-rules.md). */
  quickSend: (body: QuickSendBody, recipientCount: number, headerImage: File | null) =>
    apiPost<QuickSendResponse>(quickPath(body, recipientCount), quickSendRequestBody(body, headerImage), {
      timeout: SEND_SCREEN.sendTimeoutMs,
    }),

  /** send-custom-messages for up to 50 rows, bulk-customize-send beyond (spec §4). */
  customSend: (body: CustomSendBody) =>
    apiPost<CustomSendResponse>(customPath(body), body, { timeout: SEND_SCREEN.sendTimeoutMs }),

  campaign: (id: number) => apiGet<DataResponse<TCampaign>>(`/api/campaigns/${id}`),
};

export const sendingKeys = {
  numbers: ['sending', 'numbers'] as const,
  languages: ['sending', 'languages'] as const,
  templates: (language: string) => ['sending', 'templates', language] as const,
  templateDetails: (templateName: string, language: string) => ['sending', 'template-details', templateName, language] as const,
  pricing: ['sending', 'pricing'] as const,
  costPreview: (request: SendPreviewRequest | null) => ['sending', 'cost-preview', request] as const,
  campaign: (id: number | null) => ['sending', 'campaign', id] as const,
};
