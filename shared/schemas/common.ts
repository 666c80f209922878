import { z } from 'zod';
import { AUTH } from '../constants';
import { messages } from '../messages';
import { phoneDigits } from '../phone';

const v = messages.validation;

/**
 * A required text field: missing, non-string and blank input all give the same message,
 * which is what the spec's forms show.
 */
export function requiredText(message: string) {
  return z.string({ error: message }).trim().min(1, { error: message });
}

export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const USERNAME_PATTERN = /^[A-Za-z0-9_]+$/;

export const ZName = requiredText(v.nameRequired)
  .min(AUTH.nameMinLength, { error: v.nameMin })
  .max(AUTH.nameMaxLength, { error: v.nameMax });

export const ZEmail = requiredText(v.emailRequired)
  .max(AUTH.emailMaxLength, { error: v.emailInvalid })
  .regex(EMAIL_PATTERN, { error: v.emailInvalid })
  .transform((email) => email.toLowerCase());

export const ZUsername = requiredText(v.usernameRequired)
  .min(AUTH.usernameMinLength, { error: v.usernameMin })
  .max(AUTH.usernameMaxLength, { error: v.usernameMax })
  .regex(USERNAME_PATTERN, { error: v.usernameChars });

export const ZNewPassword = z
  .string({ error: v.passwordRequired })
  .min(1, { error: v.passwordRequired })
  .min(AUTH.passwordMinLength, { error: v.passwordMin })
  .max(AUTH.passwordMaxLength, { error: v.passwordMax });

/** Signup phone: optional; when given, country code + number, 11-15 digits, no leading 0. */
/**
 * Signup's optional phone: spaces, dashes, brackets and a leading `+` are dropped as every other
 * phone field drops them (shared/phone.ts), then the spec's 11 to 15 digits without a leading 0.
 */
export const ZSignupPhone = z
  .string({ error: v.signupPhoneFormat })
  .trim()
  .optional()
  .transform((value) => (value ? phoneDigits(value) : undefined))
  .refine(
    (value) =>
      value === undefined ||
      new RegExp(`^[1-9][0-9]{${AUTH.signupPhoneMinDigits - 1},${AUTH.signupPhoneMaxDigits - 1}}$`).test(value),
    { error: v.signupPhoneFormat },
  );

/** A positive integer id in a path. */
export const ZIdParam = z.coerce
  .number({ error: v.invalidId })
  .int({ error: v.invalidId })
  .positive({ error: v.invalidId });

/** One field's message, as carried in an error's `details`. */
export interface TFieldMessage {
  field: string;
  message: string;
}

/** Turns a zod error into the `details` list of the error shape: first message per field. */
export function zodIssuesToDetails(error: z.ZodError): TFieldMessage[] {
  const seen = new Set<string>();
  const details: TFieldMessage[] = [];
  for (const issue of error.issues) {
    const field = issue.path.map(String).join('.') || '_';
    if (seen.has(field)) continue;
    seen.add(field);
    details.push({ field, message: issue.message });
  }
  return details;
}

/** Field -> message map for forms. */
export function zodIssuesToFieldErrors(error: z.ZodError): Record<string, string> {
  return Object.fromEntries(zodIssuesToDetails(error).map((d) => [d.field, d.message]));
}
