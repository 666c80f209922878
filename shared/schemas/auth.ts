import { z } from 'zod';
import { AUTH } from '../constants';
import { GST_STATES, isGstStateCode } from '../gst';
import { gstinStateCode, isValidGstin, normaliseGstin } from '../gstin';
import { fillMessage, messages } from '../messages';
import { phoneDigits } from '../phone';
import { ZEmail, ZName, ZNewPassword, ZSignupPhone, ZUsername, requiredText } from './common';

const v = messages.validation;

export const ZLoginRequest = z.object({
  username: requiredText(v.usernameRequired),
  password: z.string({ error: v.passwordRequired }).min(1, { error: v.passwordRequired }),
});
export type TLoginRequest = z.infer<typeof ZLoginRequest>;

export const ZSignupRequest = z
  .object({
    name: ZName,
    email: ZEmail,
    username: ZUsername,
    password: ZNewPassword,
    confirmPassword: z
      .string({ error: v.confirmPasswordRequired })
      .min(1, { error: v.confirmPasswordRequired }),
    phoneNumber: ZSignupPhone,
  })
  .refine((data) => data.password === data.confirmPassword, {
    path: ['confirmPassword'],
    error: v.passwordsDoNotMatch,
  });
export type TSignupRequest = z.input<typeof ZSignupRequest>;

/** Keeps only digits, as the forgot-password phone field does while typing. */
export function digitsOnly(value: string): string {
  return value.replace(/\D+/g, '');
}

export const ZForgotPasswordRequest = z.object({
  username: z.string({ error: v.usernameAndPhoneRequired }).trim().min(1, { error: v.usernameAndPhoneRequired }),
  phone: z
    .string({ error: v.usernameAndPhoneRequired })
    .transform(phoneDigits)
    .refine((value) => value.length > 0, { error: v.usernameAndPhoneRequired }),
});
export type TForgotPasswordRequest = z.input<typeof ZForgotPasswordRequest>;

export const ZVerifyOtpRequest = z.object({
  username: requiredText(v.usernameRequired),
  otp: z
    .string({ error: v.otpRequired })
    .trim()
    .min(1, { error: v.otpRequired })
    .regex(new RegExp(`^[0-9]{${AUTH.otpLength}}$`), { error: messages.auth.otpInvalid }),
});
export type TVerifyOtpRequest = z.infer<typeof ZVerifyOtpRequest>;

/**
 * Reset payload of the spec: {username, newPassword}. `resetToken` is the proof of a verified
 * OTP for clients that cannot carry the reset cookie (the desktop app); browsers use the cookie.
 */
export const ZResetPasswordRequest = z.object({
  username: requiredText(v.usernameRequired),
  newPassword: z
    .string({ error: v.bothPasswordsRequired })
    .min(1, { error: v.bothPasswordsRequired })
    .min(AUTH.passwordMinLength, { error: v.passwordMin })
    .max(AUTH.passwordMaxLength, { error: v.passwordMax }),
  resetToken: z.string().optional(),
});
export type TResetPasswordRequest = z.infer<typeof ZResetPasswordRequest>;

/** The reset form on the login screen: both fields, then length, then match. */
export const ZResetPasswordForm = z
  .object({
    newPassword: z.string(),
    confirmPassword: z.string(),
  })
  .superRefine((data, ctx) => {
    if (!data.newPassword || !data.confirmPassword) {
      ctx.addIssue({ code: 'custom', path: ['newPassword'], message: v.bothPasswordsRequired });
    } else if (data.newPassword.length < AUTH.passwordMinLength) {
      ctx.addIssue({ code: 'custom', path: ['newPassword'], message: v.passwordMin });
    } else if (data.newPassword !== data.confirmPassword) {
      ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: v.passwordsDoNotMatch });
    }
  });
export type TResetPasswordForm = z.infer<typeof ZResetPasswordForm>;

/** Optional text: blank (or absent) means none, stored as null. */
const ZBusinessName = z.preprocess(
  (value) => (typeof value === 'string' && value.trim() === '' ? null : value),
  z.string().trim().max(120, { error: messages.profile.businessNameTooLong }).nullable().optional(),
);
const ZGstin = z.preprocess(
  (value) => (typeof value === 'string' ? (value.trim() === '' ? null : normaliseGstin(value)) : value),
  z.string().refine(isValidGstin, { error: messages.profile.gstinInvalid }).nullable().optional(),
);

const ZBillingAddress = z.preprocess(
  (value) => (typeof value === 'string' && value.trim() === '' ? null : value),
  z.string().trim().max(300, { error: messages.profile.billingAddressTooLong }).nullable().optional(),
);
const ZBillingState = z.preprocess(
  (value) => (typeof value === 'string' && value.trim() === '' ? null : value),
  z.string().refine(isGstStateCode, { error: messages.profile.billingStateInvalid }).nullable().optional(),
);

/**
 * The text when a GSTIN's state code (its first two digits) is not the chosen billing state, or
 * null when they agree or either is missing: a GSTIN is registered in one state.
 */
export function gstinStateMismatch(gstin: string | null | undefined, billingState: string | null | undefined): string | null {
  if (!gstin || !billingState || gstinStateCode(gstin) === billingState) return null;
  return fillMessage(messages.profile.gstinStateMismatch, { gstinState: GST_STATES[gstinStateCode(gstin)] ?? gstinStateCode(gstin) });
}

/** businessName, gstin, billingAddress and billingState are optional: a client that leaves them out keeps what is stored. */
export const ZUpdateProfileRequest = z
  .object({
    name: ZName,
    email: ZEmail,
    businessName: ZBusinessName,
    gstin: ZGstin,
    billingAddress: ZBillingAddress,
    billingState: ZBillingState,
  })
  .superRefine((profile, context) => {
    const mismatch = gstinStateMismatch(profile.gstin, profile.billingState);
    if (mismatch) context.addIssue({ code: 'custom', path: ['billingState'], message: mismatch });
  });
export type TUpdateProfileRequest = z.input<typeof ZUpdateProfileRequest>;

/** POST /api/auth/change-password: the signed-in user's own password, the current one required. */
export const ZChangePasswordRequest = z
  .object({
    currentPassword: z.string({ error: messages.auth.currentPasswordRequired }).min(1, { error: messages.auth.currentPasswordRequired }),
    newPassword: ZNewPassword,
  })
  .refine((data) => data.currentPassword !== data.newPassword, { path: ['newPassword'], error: messages.auth.newPasswordSameAsCurrent });
export type TChangePasswordRequest = z.input<typeof ZChangePasswordRequest>;

export type PasswordStrength = 'weak' | 'medium' | 'strong';

/** Spec 000 §5: under 6 Weak, 6 to 9 Medium, 10 or more Strong. */
export function passwordStrength(password: string): PasswordStrength {
  if (password.length >= AUTH.strengthStrongFrom) return 'strong';
  if (password.length >= AUTH.strengthMediumFrom) return 'medium';
  return 'weak';
}
