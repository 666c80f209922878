/** The admin User Details screen (spec 001 "User details"): basic info, then business info. */
import { messages } from '@shared/messages';
import { ZUpdateUserRequest, type TUpdateUserRequest } from '@shared/schemas/admin';
import { ZBusinessInfoRequest, type TBusinessInfoRequest } from '@shared/schemas/providers';
import type { TBusinessInfo, TUser } from '@shared/types';
import { basicInfoFormFrom, buildBasicInfoPayload, changedBasicFields, type BasicInfoForm } from './adminUserForms';
import { validateForm, type FieldErrors, type FormValidation } from './forms';

export interface UserDetailsForm extends BasicInfoForm {
  /** As typed; the spec's form holds the balance as a number. */
  creditBalance: string;
}

export function userDetailsFormFrom(user: Pick<TUser, 'name' | 'email' | 'username' | 'phoneNumber' | 'role' | 'creditBalance'>): UserDetailsForm {
  return { ...basicInfoFormFrom(user), creditBalance: String(user.creditBalance) };
}

/** True when the typed balance means another amount than the stored one ("12.50" is "12.5"). */
function balanceChanged(saved: UserDetailsForm, form: UserDetailsForm): boolean {
  const typed = form.creditBalance.trim();
  return typed === '' || Number(typed) !== Number(saved.creditBalance);
}

/** Only what was edited goes out, as on the settings screen (README "Decisions taken here"). */
export function buildUserDetailsPayload(saved: UserDetailsForm, form: UserDetailsForm): TUpdateUserRequest {
  const payload = buildBasicInfoPayload(saved, form);
  if (balanceChanged(saved, form)) payload.creditBalance = form.creditBalance.trim();
  return payload;
}

export function isUserDetailsChanged(saved: UserDetailsForm, form: UserDetailsForm): boolean {
  return changedBasicFields(saved, form).length > 0 || balanceChanged(saved, form);
}

export function validateUserDetails(saved: UserDetailsForm, form: UserDetailsForm): FormValidation<TUpdateUserRequest> {
  const payload = buildUserDetailsPayload(saved, form);
  // z.coerce would read an emptied balance as 0: an empty field is not a balance.
  if (payload.creditBalance === '') return { ok: false, errors: { creditBalance: messages.validation.creditBalanceInvalid } };
  const result = validateForm(ZUpdateUserRequest, payload);
  // The parsed values go out: the balance as a number, the e-mail lower-cased.
  return result.ok ? { ok: true, data: result.data } : result;
}

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

/** Both forms checked before anything is sent, so a bad business field never leaves half a save. */
export function validateDetailsSave(
  saved: { user: UserDetailsForm; business: BusinessInfoForm },
  form: { user: UserDetailsForm; business: BusinessInfoForm },
): { ok: true; user: TUpdateUserRequest | null; business: TBusinessInfoRequest | null } | { ok: false; userErrors: FieldErrors; businessErrors: FieldErrors } {
  const user = isUserDetailsChanged(saved.user, form.user) ? validateUserDetails(saved.user, form.user) : null;
  const business = isBusinessInfoChanged(saved.business, form.business) ? validateBusinessInfo(form.business) : null;
  if ((user && !user.ok) || (business && !business.ok)) {
    return { ok: false, userErrors: user && !user.ok ? user.errors : {}, businessErrors: business && !business.ok ? business.errors : {} };
  }
  return { ok: true, user: user?.ok ? user.data : null, business: business?.ok ? business.data : null };
}
