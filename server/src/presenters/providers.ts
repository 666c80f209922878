import { messages } from '@shared/messages';
import type { TBusinessInfo, TBusinessInfoSummary, TProviderSettings } from '@shared/types';
import type { BusinessInfoRecord, BusinessInfoSummaryRecord } from '../providerAccounts/businessInfo';
import type { ProviderSettingsRecord } from '../providerAccounts/channelSettings';

/** Business info for admins: secrets appear only as `...Set` flags. */
export function presentBusinessInfo(info: BusinessInfoRecord): TBusinessInfo {
  return {
    id: info.id,
    businessName: info.businessName,
    whatsappNumber: info.whatsappNumber,
    whatsappNumberId: info.whatsappNumberId,
    wabaId: info.wabaId,
    webhookUrl: info.webhookUrl,
    isActive: info.isActive,
    accessTokenSet: info.accessTokenSet,
    webhookVerifyTokenSet: info.webhookVerifyTokenSet,
    appSecretSet: info.appSecretSet,
    createdAt: info.createdAt.toISOString(),
    updatedAt: info.updatedAt.toISOString(),
  };
}

export function presentBusinessInfoSummary(info: BusinessInfoSummaryRecord): TBusinessInfoSummary {
  return { businessName: info.businessName, whatsappNumber: info.whatsappNumber, isActive: info.isActive };
}

/** Spec 001 §3 "Provider settings", with its defaults for a user without business info. */
export function presentProviderSettings(settings: ProviderSettingsRecord): TProviderSettings {
  return {
    userId: settings.userId,
    businessName: settings.businessName || messages.providers.businessNameDefault,
    whatsappNumber: settings.whatsappNumber || messages.providers.whatsappNumberDefault,
    provider: settings.provider,
    channelId: settings.channelId,
    apiKeySet: settings.apiKeySet,
    webhookUrl: settings.webhookUrl,
    updatedAt: settings.updatedAt?.toISOString() ?? null,
  };
}
