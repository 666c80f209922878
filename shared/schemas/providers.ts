import { z } from 'zod';
import { PROVIDERS } from '../constants';
import { messages } from '../messages';

const p = messages.providers;

/** Ids the providers hand out: channel ids, phone number ids, business account ids. */
export const PROVIDER_ID_PATTERN = /^[A-Za-z0-9._-]+$/;
/** Spec 001 §5: digits, spaces, hyphens, parentheses and an optional leading plus. */
export const WHATSAPP_NUMBER_PATTERN = /^\+?[0-9\s\-()]+$/;
const NO_SPACES = /^\S+$/;

/** True for an absolute http:// or https:// address (spec 001 §5 webhookUrl). */
export function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/** True for a WhatsApp number the spec's pattern allows, with 8 to 15 digits (docs/decisions/2026-11-21-sending-rules.md). */
export function isWhatsappNumber(value: string): boolean {
  const digits = value.replace(/\D/g, '').length;
  return WHATSAPP_NUMBER_PATTERN.test(value) && digits >= 8 && digits <= 15;
}

/** A plain field: absent keeps the stored value; null or blank clears it. */
function clearableText(message: string, check: (value: string) => boolean) {
  return z
    .union([z.string(), z.null()], { error: message })
    .optional()
    .transform((value) => (value === undefined ? undefined : value === null ? null : value.trim() || null))
    .refine((value) => value === undefined || value === null || check(value), { error: message });
}

/** A write-only secret: absent, null or blank keeps the stored value (it is never sent back to edit). */
function secretText(message: string, max: number) {
  return z
    .union([z.string(), z.null()], { error: message })
    .optional()
    .transform((value) => (value ? value.trim() : '') || undefined)
    .refine((value) => value === undefined || (value.length <= max && NO_SPACES.test(value)), { error: message });
}

const providerId = (message: string) =>
  clearableText(message, (value) => value.length <= PROVIDERS.providerIdMax && PROVIDER_ID_PATTERN.test(value));

/**
 * PUT /api/admin/users/{id}/business-info (spec 001 §7, plus appSecret). The WhatsApp number is
 * stored as digits with its country code.
 */
export const ZBusinessInfoRequest = z.object({
  businessName: clearableText(p.businessNameMax, (value) => value.length <= PROVIDERS.businessNameMax),
  whatsappNumber: clearableText(messages.validation.whatsappNumberInvalid, isWhatsappNumber).transform((value) =>
    value ? value.replace(/\D/g, '') : value,
  ),
  whatsappNumberId: providerId(p.numberIdInvalid),
  wabaId: providerId(p.wabaIdInvalid),
  accessToken: secretText(p.accessTokenInvalid, PROVIDERS.accessTokenMax),
  webhookUrl: clearableText(p.webhookUrlInvalid, (value) => value.length <= PROVIDERS.webhookUrlMax && isHttpUrl(value)),
  webhookVerifyToken: secretText(p.verifyTokenInvalid, PROVIDERS.webhookTokenMax),
  appSecret: secretText(p.appSecretInvalid, PROVIDERS.appSecretMax),
  isActive: z.boolean({ error: p.isActiveInvalid }).optional(),
});
export type TBusinessInfoRequest = z.input<typeof ZBusinessInfoRequest>;
export type TBusinessInfoInput = z.output<typeof ZBusinessInfoRequest>;

/** Spec 001 §5 "Channel ID": required, trimmed, 2 to 128 letters, digits, dots, underscores, hyphens. */
export const ZChannelId = z
  .string({ error: p.channelIdRequired })
  .trim()
  .min(1, { error: p.channelIdRequired })
  .min(PROVIDERS.channelIdMin, { error: p.channelIdMin })
  .max(PROVIDERS.channelIdMax, { error: p.channelIdMax })
  .regex(PROVIDER_ID_PATTERN, { error: p.channelIdChars });

/** Spec 001 §5 "API key": optional (empty means keep the stored key), 10 to 4096 characters, no surrounding spaces. */
export const ZOptionalApiKey = z
  .union([z.string(), z.null()], { error: p.apiKeyLength })
  .optional()
  .transform((value) => value || undefined)
  .superRefine((value, ctx) => {
    if (value === undefined) return;
    if (value.length < PROVIDERS.apiKeyMin || value.length > PROVIDERS.apiKeyMax) ctx.addIssue({ code: 'custom', message: p.apiKeyLength });
    else if (value !== value.trim()) ctx.addIssue({ code: 'custom', message: p.apiKeySpaces });
  });

/** PUT /api/admin/whatsapp/settings/{userId}. */
export const ZProviderSettingsRequest = z.object({
  channelId: ZChannelId,
  apiKey: ZOptionalApiKey,
});
export type TProviderSettingsRequest = z.input<typeof ZProviderSettingsRequest>;
export type TProviderSettingsInput = z.output<typeof ZProviderSettingsRequest>;
