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

/** Admin credit adjustment (spec 001 Wallet management): amount > 0 with a reason. */
export const ZCreditAdjustmentRequest = z.object({
  mode: z.enum(['add', 'deduct'], { error: messages.adminWallet.modeInvalid }),
  amount: z.coerce
    .number({ error: messages.adminWallet.amountInvalid })
    .refine((n) => Number.isFinite(n) && n > 0, { error: messages.adminWallet.amountInvalid })
    .refine((n) => n <= 10_000_000, { error: messages.adminWallet.amountInvalid })
    .transform((n) => Math.round(n * 100) / 100),
  reason: z
    .string({ error: messages.adminWallet.reasonRequired })
    .trim()
    .min(1, { error: messages.adminWallet.reasonRequired })
    .max(200, { error: messages.adminWallet.reasonRequired }),
});
export type TCreditAdjustmentRequest = z.input<typeof ZCreditAdjustmentRequest>;

const WHATSAPP_NUMBER_PATTERN = /^\+?[0-9\s\-()]+$/;

/**
 * PUT /api/admin/users/{id}: any of the basic fields (spec 001 §5). The wallet screen of older
 * clients sends only creditBalance; the difference becomes a ledger entry with `reason`.
 */
export const ZUpdateUserRequest = z.object({
  name: requiredText(v.nameRequired).max(100, { error: v.nameMax }).optional(),
  email: requiredText(messages.adminUser.emailRequired)
    .regex(EMAIL_PATTERN, { error: v.emailInvalidAdmin })
    .transform((email) => email.toLowerCase())
    .optional(),
  username: ZUsername.optional(),
  phoneNumber: z
    .union([z.string(), z.null()])
    .optional()
    .transform((value) => (value ? value.trim() : value === null || value === '' ? null : undefined))
    .refine((value) => !value || (WHATSAPP_NUMBER_PATTERN.test(value) && value.replace(/\D/g, '').length >= 8 && value.replace(/\D/g, '').length <= 15), {
      error: v.whatsappNumberInvalid,
    }),
  role: z.enum(ROLES, { error: v.roleInvalid }).optional(),
  creditBalance: z.coerce
    .number({ error: v.creditBalanceInvalid })
    .refine(Number.isFinite, { error: v.creditBalanceInvalid })
    .min(0, { error: v.creditBalanceNegative })
    .max(10_000_000, { error: v.creditBalanceInvalid })
    .optional(),
  reason: z.string().trim().max(200).optional(),
});
export type TUpdateUserRequest = z.input<typeof ZUpdateUserRequest>;

/** POST /api/admin/users/{id}/change-password. */
export const ZAdminChangePasswordRequest = z.object({
  newPassword: z
    .string({ error: v.bothPasswordsRequired })
    .min(1, { error: v.bothPasswordsRequired })
    .min(6, { error: v.passwordMin })
    .max(128, { error: v.passwordMax }),
});
export type TAdminChangePasswordRequest = z.input<typeof ZAdminChangePasswordRequest>;

/**
 * DELETE /api/admin/users/{id}: a user whose wallet holds money is deleted only with
 * `confirm_balance`, the balance in rupees as the admin was shown it (2 decimals)
 * (docs/decisions/2026-12-07-delete-user-balance.md). A zero balance needs nothing.
 */
export const ZDeleteUserQuery = z.object({
  confirm_balance: z.coerce.number({ error: messages.admin.deleteUserBalanceInvalid }).finite({ error: messages.admin.deleteUserBalanceInvalid }).optional(),
});
export type TDeleteUserQuery = z.input<typeof ZDeleteUserQuery>;

/** Releases a user's held refunds: the given messages, or all of them when none are named. */
export const ZReleaseHeldRefundsRequest = z.object({
  messageIds: z.array(z.number().int().positive()).max(1000).optional(),
});
export type TReleaseHeldRefundsRequest = z.input<typeof ZReleaseHeldRefundsRequest>;

export interface THeldRefund {
  id: number;
  campaignId: number;
  campaignName: string;
  recipient: string;
  amount: number;
  failedAt: string | null;
  errorCode: number | null;
  errorMessage: string | null;
}

export interface THeldRefundsResponse {
  success: true;
  count: number;
  amount: number;
  messages: THeldRefund[];
}

export interface TReleaseHeldRefundsResponse {
  success: true;
  message: string;
  released: number;
  amount: number;
  creditBalance: number;
}

/**
 * PUT /api/admin/simulator/numbers/{phoneNumberId}/fault (tests and demos): the simulator answers the
 * number's sends with this Meta error (any code of the error table), or expires its token (190).
 */
export const ZSimulatorFaultRequest = z.union([
  z.object({ expire_token: z.boolean() }).strict(),
  z
    .object({
      code: z.number().int(),
      http_status: z.number().int().min(400).max(599).optional(),
      subcode: z.number().int().optional(),
      is_transient: z.boolean().optional(),
      details: z.string().max(500).optional(),
      times: z.number().int().min(1).max(1_000_000).optional(),
    })
    .strict(),
]);
export type TSimulatorFaultRequest = z.infer<typeof ZSimulatorFaultRequest>;
