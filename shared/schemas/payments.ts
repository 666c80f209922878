import { z } from 'zod';
import { TOPUP } from '../constants';
import { messages } from '../messages';

const w = messages.wallet;

/**
 * Top-up amount in rupees (= credits): commas and spaces are stripped, then a whole number from
 * 1 to 1,00,000 (spec 000 §5). The same rule runs in the form and on the server.
 */
export const ZTopUpAmount = z
  .union([z.string(), z.number()], { error: w.amountMin })
  .transform((value) => String(value).replace(/[,\s]/g, ''))
  .superRefine((value, ctx) => {
    if (!/^-?\d+(\.\d+)?$/.test(value)) ctx.addIssue({ code: 'custom', message: w.amountWhole });
    else if (!/^-?\d+$/.test(value)) ctx.addIssue({ code: 'custom', message: w.amountWhole });
    else if (Number(value) < TOPUP.minRupees) ctx.addIssue({ code: 'custom', message: w.amountMin });
    else if (Number(value) > TOPUP.maxRupees) ctx.addIssue({ code: 'custom', message: w.amountMax });
  })
  .transform(Number);

export const ZCreateOrderRequest = z.object({ amountCredits: ZTopUpAmount });
export type TCreateOrderRequest = z.input<typeof ZCreateOrderRequest>;

const requiredId = (name: string) => z.string({ error: `${name} is required` }).trim().min(1, { error: `${name} is required` }).max(100);

/** amountCredits is accepted for compatibility and ignored: the stored order decides the credit. */
export const ZVerifyPaymentRequest = z.object({
  orderId: requiredId('orderId'),
  paymentId: requiredId('paymentId'),
  signature: requiredId('signature'),
  amountCredits: z.unknown().optional(),
});
export type TVerifyPaymentRequest = z.input<typeof ZVerifyPaymentRequest>;
