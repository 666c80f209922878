import type { TBusinessInfoRequest, TProviderSettingsRequest } from '@shared/schemas/providers';
import type {
  TBusinessInfoResponse,
  TBusinessInfoSaveResponse,
  TProviderSettingsResponse,
  TProviderSettingsSaveResponse,
} from '@shared/types';
import { apiGet, apiPut } from './client';

/** A user's provider configuration (spec 001 §7): business info and channel provider settings. */
export const adminProvidersApi = {
  businessInfo: (userId: number) => apiGet<TBusinessInfoResponse>(`/api/admin/users/${userId}/business-info`),
  saveBusinessInfo: (userId: number, body: TBusinessInfoRequest) =>
    apiPut<TBusinessInfoSaveResponse>(`/api/admin/users/${userId}/business-info`, body),
  settings: (userId: number) => apiGet<TProviderSettingsResponse>(`/api/admin/whatsapp/settings/${userId}`),
  /** The API key is sent only when one was typed (spec 001 §5); without it the stored key stays. */
  saveSettings: (userId: number, body: TProviderSettingsRequest) =>
    apiPut<TProviderSettingsSaveResponse>(`/api/admin/whatsapp/settings/${userId}`, body),
};

export const providerKeys = {
  settings: (userId: number) => ['admin', 'user', userId, 'provider-settings'] as const,
};
