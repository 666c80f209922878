import { z } from 'zod';
import { ROLES, USERS } from '../constants';
import { messages } from '../messages';
import { ZNewPassword, ZSignupPhone, ZUsername, EMAIL_PATTERN, requiredText } from './common';

const v = messages.validation;

/**
 * Add User dialog payload. The spec shows no client validation for this dialog; the server
 * applies the account rules and answers with the catalogue's messages.
 */
export const ZCreateUserRequest = z.object({
  name: requiredText(v.nameRequired).max(100, { error: v.nameMax }),
  email: requiredText(v.emailRequired)
    .regex(EMAIL_PATTERN, { error: v.emailInvalidAdmin })
    .transform((email) => email.toLowerCase()),
  username: ZUsername,
  password: ZNewPassword,
  phoneNumber: ZSignupPhone,
  role: z.enum(ROLES, { error: v.roleInvalid }).default('user'),
  creditBalance: z.coerce
    .number({ error: v.creditBalanceInvalid })
    .refine(Number.isFinite, { error: v.creditBalanceInvalid })
    .min(0, { error: v.creditBalanceNegative })
    .max(10_000_000, { error: v.creditBalanceInvalid })
    .default(USERS.defaultCreatedUserCredits),
});
export type TCreateUserRequest = z.input<typeof ZCreateUserRequest>;
