/**
 * The Cloud API business info form of the Provider tab (admin User Settings), beside the
 * channel settings: provider set-up lives in one place, not on User Details.
 */
import { z } from 'zod';
import { ZBusinessInfoRequest, type TBusinessInfoRequest } from '@shared/schemas/providers';
import type { TBusinessInfo } from '@shared/types';
import { validateForm, type FormValidation } from './forms';

export interface BusinessInfoForm {
  businessName: string;
  whatsappNumber: string;
  whatsappNumberId: string;
  wabaId: string;
  webhookUrl: string;
  isActive: boolean;
  /** The three secrets are write-only: empty keeps what is stored. */
  accessToken: string;
  webhookVerifyToken: string;
  appSecret: string;
}

export const BUSINESS_TEXT_FIELDS = ['businessName', 'whatsappNumber', 'whatsappNumberId', 'wabaId', 'webhookUrl'] as const;
export const BUSINESS_SECRET_FIELDS = ['accessToken', 'webhookVerifyToken', 'appSecret'] as const;

export function businessInfoFormFrom(info: TBusinessInfo | null): BusinessInfoForm {
  return {
    businessName: info?.businessName ?? '',
    whatsappNumber: info?.whatsappNumber ?? '',
    whatsappNumberId: info?.whatsappNumberId ?? '',
    wabaId: info?.wabaId ?? '',
    webhookUrl: info?.webhookUrl ?? '',
    isActive: info?.isActive ?? true,
    accessToken: '',
    webhookVerifyToken: '',
    appSecret: '',
  };
}

/**
 * Business info is written only when it was edited: saving a name change must not create an
 * empty business info, and with it a "Configured" user.
 */
export function isBusinessInfoChanged(saved: BusinessInfoForm, form: BusinessInfoForm): boolean {
  return (
    BUSINESS_TEXT_FIELDS.some((field) => saved[field].trim() !== form[field].trim()) ||
    saved.isActive !== form.isActive ||
    BUSINESS_SECRET_FIELDS.some((field) => form[field] !== '')
  );
}

/** Every plain field (empty clears it) and the secrets that were typed. */
export function buildBusinessInfoPayload(form: BusinessInfoForm): TBusinessInfoRequest {
  const payload: TBusinessInfoRequest = {
    businessName: form.businessName.trim(),
    whatsappNumber: form.whatsappNumber.trim(),
    whatsappNumberId: form.whatsappNumberId.trim(),
    wabaId: form.wabaId.trim(),
    webhookUrl: form.webhookUrl.trim(),
    isActive: form.isActive,
  };
  for (const field of BUSINESS_SECRET_FIELDS) {
    if (form[field].trim() !== '') payload[field] = form[field].trim();
  }
  return payload;
}

export function validateBusinessInfo(form: BusinessInfoForm): FormValidation<TBusinessInfoRequest> {
  const payload = buildBusinessInfoPayload(form);
  const result = validateForm(ZBusinessInfoRequest, payload);
  return result.ok ? { ok: true, data: payload } : result;
}

/** The card's fields as typed, checked by the server's schema on what would be sent. */
export const ZBusinessInfoForm = z
  .object({
    businessName: z.string(),
    whatsappNumber: z.string(),
    whatsappNumberId: z.string(),
    wabaId: z.string(),
    webhookUrl: z.string(),
    isActive: z.boolean(),
    accessToken: z.string(),
    webhookVerifyToken: z.string(),
    appSecret: z.string(),
  })
  .transform((form, context): TBusinessInfoRequest => {
    const checked = validateBusinessInfo(form);
    if (checked.ok) return checked.data;
    for (const [field, message] of Object.entries(checked.errors)) context.addIssue({ code: 'custom', path: [field], message });
    return z.NEVER;
  });
