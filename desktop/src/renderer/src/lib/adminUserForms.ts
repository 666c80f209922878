/** Forms of the admin User Settings screen (spec 001 §5). */
import { z } from 'zod';
import { ROLES } from '@shared/constants';
import { messages } from '@shared/messages';
import { ZAdminChangePasswordRequest, ZUpdateUserRequest, type TUpdateUserRequest } from '@shared/schemas/admin';
import type { TUser } from '@shared/types';
import { validateForm, type FieldErrors, type FormValidation } from './forms';

const v = messages.validation;

export interface BasicInfoForm {
  name: string;
  email: string;
  username: string;
  phoneNumber: string;
  role: TUser['role'];
}

export function basicInfoFormFrom(user: Pick<TUser, 'name' | 'email' | 'username' | 'phoneNumber' | 'role'>): BasicInfoForm {
  return {
    name: user.name,
    email: user.email,
    username: user.username,
    phoneNumber: user.phoneNumber ?? '',
    role: user.role,
  };
}

const BASIC_FIELDS = ['name', 'email', 'username', 'phoneNumber', 'role'] as const;

/** The basic fields edited since the form was loaded. */
export function changedBasicFields(saved: BasicInfoForm, form: BasicInfoForm): Array<keyof BasicInfoForm> {
  return BASIC_FIELDS.filter((field) => saved[field] !== form[field]);
}

/**
 * The Basic Information save sends only what was edited: the server takes any of the fields,
 * and an account whose stored value predates today's rules (the first admin's
 * `admin@localhost`) can still have its name changed. An edited field is checked in full, so
 * emptying one shows the spec's required message; an emptied phone clears the number.
 */
export function buildBasicInfoPayload(saved: BasicInfoForm, form: BasicInfoForm): TUpdateUserRequest {
  const payload: TUpdateUserRequest = {};
  for (const field of changedBasicFields(saved, form)) {
    if (field === 'role') payload.role = form.role;
    else payload[field] = form[field];
  }
  return payload;
}

export interface PasswordChangeForm {
  newPassword: string;
  confirmPassword: string;
}

/**
 * Spec 001 §5 in its order: both fields required, then the minimum length, then the match.
 * Messages sit under the field they are about.
 */
export function validatePasswordChange(form: PasswordChangeForm): FormValidation<{ newPassword: string }> {
  if (!form.newPassword || !form.confirmPassword) {
    const field: keyof PasswordChangeForm = form.newPassword ? 'confirmPassword' : 'newPassword';
    return { ok: false, errors: { [field]: v.bothPasswordsRequired } };
  }
  const parsed = validateForm(ZAdminChangePasswordRequest, { newPassword: form.newPassword });
  if (!parsed.ok) return parsed;
  if (form.newPassword !== form.confirmPassword) {
    const errors: FieldErrors = { confirmPassword: v.passwordsDoNotMatch };
    return { ok: false, errors };
  }
  return parsed;
}

/** The Basic Information form: what was edited since `saved`, checked by the server's schema. */
export function basicInfoFormSchema(saved: BasicInfoForm) {
  return z
    .object({ name: z.string(), email: z.string(), username: z.string(), phoneNumber: z.string(), role: z.enum(ROLES) })
    .transform((form) => buildBasicInfoPayload(saved, form))
    .pipe(ZUpdateUserRequest);
}

/** The admin's Change Password form, with the spec's order of messages (`validatePasswordChange`). */
export const ZPasswordChangeForm = z
  .object({ newPassword: z.string(), confirmPassword: z.string() })
  .transform((form, context) => {
    const validation = validatePasswordChange(form);
    if (validation.ok) return validation.data;
    for (const [field, message] of Object.entries(validation.errors)) context.addIssue({ code: 'custom', path: [field], message });
    return z.NEVER;
  });
