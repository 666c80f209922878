import { z } from 'zod';
import { messages } from '../messages';
import { PRICE_CATEGORIES, PRICE_PATTERN, type PriceCategory } from '../pricing';

const p = messages.pricing;

/** A required price: digits with up to 4 decimals, not negative (spec 001 §5). */
export const ZPrice = z
  .union([z.string(), z.number()], { error: p.priceRequired })
  .transform((value) => String(value).trim())
  .superRefine((value, ctx) => {
    if (value === '') ctx.addIssue({ code: 'custom', message: p.priceRequired });
    else if (value.startsWith('-')) ctx.addIssue({ code: 'custom', message: p.priceNegative });
    else if (!PRICE_PATTERN.test(value)) ctx.addIssue({ code: 'custom', message: p.priceFormat });
  });

/** A custom price: empty or missing means "use the default" (null). */
export const ZOptionalPrice = z
  .union([z.string(), z.number(), z.null()])
  .optional()
  .transform((value) => (value === null || value === undefined ? '' : String(value).trim()))
  .superRefine((value, ctx) => {
    if (value === '') return;
    if (value.startsWith('-')) ctx.addIssue({ code: 'custom', message: p.priceNegative });
    else if (!PRICE_PATTERN.test(value)) ctx.addIssue({ code: 'custom', message: p.priceFormat });
  })
  .transform((value) => (value === '' ? null : value));

export const ZPriceDefaultsRequest = z.object({
  marketing: ZPrice,
  utility: ZPrice,
  authentication: ZPrice,
  /** Optional: a form that predates the `service` category leaves its price as it is. */
  service: ZPrice.optional(),
});
export type TPriceDefaultsRequest = z.input<typeof ZPriceDefaultsRequest>;

export const ZUserPricingRequest = z
  .object({
    mode: z.enum(['default', 'custom'], { error: p.modeInvalid }),
    pricing: z
      .object({ marketing: ZOptionalPrice, utility: ZOptionalPrice, authentication: ZOptionalPrice, service: ZOptionalPrice })
      .optional(),
  })
  .superRefine((data, ctx) => {
    if (data.mode !== 'custom') return;
    const given = PRICE_CATEGORIES.filter((category: PriceCategory) => data.pricing?.[category] != null);
    if (given.length === 0) ctx.addIssue({ code: 'custom', path: ['pricing'], message: p.customPriceRequired });
  });
export type TUserPricingRequest = z.input<typeof ZUserPricingRequest>;
