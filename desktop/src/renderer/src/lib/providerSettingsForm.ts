/** The WhatsApp Business (provider settings) tab of User Settings (spec 001 §2, §4, §5, §8). */
import { z } from 'zod';
import { fillMessage, messages } from '@shared/messages';
import { ZProviderSettingsRequest, type TProviderSettingsRequest } from '@shared/schemas/providers';
import type { TProviderSettings } from '@shared/types';
import { toApiError } from '../api/errors';
import { validateForm, type FormValidation } from './forms';

const p = messages.providers;

export interface ProviderSettingsForm {
  channelId: string;
  /** Write-only: always empty when loaded; typing one replaces the stored key on save. */
  apiKey: string;
}

/** What the tab shows when loading failed (spec 001: defaults with a warning). */
export function defaultProviderSettings(userId: number): TProviderSettings {
  return {
    userId,
    businessName: p.businessNameDefault,
    whatsappNumber: p.whatsappNumberDefault,
    provider: 'channel',
    channelId: null,
    apiKeySet: false,
    webhookUrl: '',
    updatedAt: null,
  };
}

export function providerFormFrom(settings: Pick<TProviderSettings, 'channelId'>): ProviderSettingsForm {
  return { channelId: settings.channelId ?? '', apiKey: '' };
}

/** Changed: another channel id (ignoring the spaces the save trims), or any key typed. */
export function isProviderFormChanged(saved: ProviderSettingsForm, form: ProviderSettingsForm): boolean {
  return form.channelId.trim() !== saved.channelId.trim() || form.apiKey !== '';
}

/** The payload: the channel id trimmed, the API key only when one was typed. */
export function buildProviderPayload(form: ProviderSettingsForm): TProviderSettingsRequest {
  return form.apiKey === '' ? { channelId: form.channelId.trim() } : { channelId: form.channelId.trim(), apiKey: form.apiKey };
}

export function validateProviderForm(form: ProviderSettingsForm): FormValidation<TProviderSettingsRequest> {
  const result = validateForm(ZProviderSettingsRequest, buildProviderPayload(form));
  return result.ok ? { ok: true, data: buildProviderPayload(form) } : result;
}

/**
 * The form's schema: both fields stay text while typed; on a check the shared
 * `ZProviderSettingsRequest` (the server's) runs on the payload, and the payload is what is sent.
 */
export const ZProviderSettingsForm = z.object({ channelId: z.string(), apiKey: z.string() }).transform((form, context): TProviderSettingsRequest => {
  const payload = buildProviderPayload(form);
  const result = ZProviderSettingsRequest.safeParse(payload);
  if (result.success) return payload;
  for (const issue of result.error.issues) context.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  return z.NEVER;
});

/** Spec 001: Save is enabled only when the form is changed, valid and not busy. */
export function canSaveProvider(saved: ProviderSettingsForm, form: ProviderSettingsForm, busy: boolean): boolean {
  return !busy && isProviderFormChanged(saved, form) && validateProviderForm(form).ok;
}

const FIELD_LABELS: Record<string, string> = { channelId: 'Channel ID', apiKey: 'API Key' };

/**
 * The destructive toast of a failed save: titled 'Invalid {field}' when the server named a
 * field, 'Save Failed' otherwise; the server's words (or the spec's fallback) beneath.
 */
export function providerSaveFailure(error: unknown): { title: string; description: string } {
  const apiError = toApiError(error);
  const label = apiError.field ? (FIELD_LABELS[apiError.field] ?? apiError.field) : null;
  return {
    title: label ? fillMessage(p.invalidFieldTitle, { field: label }) : p.saveFailedTitle,
    description: apiError.serverMessage ?? p.saveFailed,
  };
}

/** Why loading failed: the server's words, 'HTTP {status}: ...', or 'Failed to load settings' without an answer. */
export function providerLoadFailure(error: unknown): string {
  const apiError = toApiError(error);
  if (apiError.serverMessage) return apiError.serverMessage;
  if (apiError.status > 0) return fillMessage(p.fetchFailedStatus, { status: apiError.status });
  return p.loadFailed;
}
