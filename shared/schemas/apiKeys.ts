import { z } from 'zod';
import { API_KEYS } from '../apiKeys';
import { fillMessage, messages } from '../messages';
import { formatIndianNumber } from '../money';

const k = messages.apiKeys;

/** POST /api/keys */
export const ZCreateApiKeyRequest = z.object({
  name: z
    .string({ error: k.nameRequired })
    .trim()
    .min(1, { error: k.nameRequired })
    .max(API_KEYS.nameMaxLength, { error: fillMessage(k.nameTooLong, { max: API_KEYS.nameMaxLength }) }),
});
export type TCreateApiKeyRequest = z.infer<typeof ZCreateApiKeyRequest>;

const rateLimitInvalid = fillMessage(k.rateLimitInvalid, { max: formatIndianNumber(API_KEYS.rateLimitMax) });

/** PUT /api/admin/api-keys/{id}/rate-limit: a whole number of requests per 15 minutes, or null for the default. */
export const ZApiKeyRateLimitRequest = z.object({
  rateLimitPer15Min: z
    .number({ error: rateLimitInvalid })
    .int({ error: rateLimitInvalid })
    .min(1, { error: rateLimitInvalid })
    .max(API_KEYS.rateLimitMax, { error: rateLimitInvalid })
    .nullable(),
});
export type TApiKeyRateLimitRequest = z.infer<typeof ZApiKeyRateLimitRequest>;
