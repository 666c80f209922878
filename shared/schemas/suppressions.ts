/**
 * The suppression list (numbers that get none of an account's messages), its opt-out keywords and
 * the replies flagged for a decision. Session or API key for the list; the screen for the rest.
 */
import { z } from 'zod';
import { messages } from '../messages';
import { checkPhone } from '../phone';
import { normaliseReply, OPT_IN_KEYWORDS, OPT_OUT_KEYWORD_MAX_LENGTH, OPT_OUT_KEYWORDS_MAX } from '../optOutKeywords';

const m = messages.suppressions;

export const SUPPRESSIONS_PAGE_SIZE = 50;
/** Rows one CSV import may carry (its JSON body stays within the ordinary body limit). */
export const SUPPRESSION_IMPORT_MAX_ROWS = 20_000;
export const SUPPRESSION_REASON_MAX_LENGTH = 200;

/** How a number came onto the list. */
export const SUPPRESSION_SOURCES = ['keyword_reply', 'button', 'preference_webhook', 'send_error', 'manual', 'import'] as const;
export type TSuppressionSource = (typeof SUPPRESSION_SOURCES)[number];

const optionalQuery = <T extends z.ZodType>(schema: T) => z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

/** A phone number as any of the product's forms take it, answered with its country code. */
export const ZSuppressionPhone = z.string().transform((raw, ctx) => {
  const checked = checkPhone(raw);
  if (!checked.ok) {
    ctx.addIssue({ code: 'custom', message: messages.phone.invalid[checked.reason] });
    return z.NEVER;
  }
  return checked.phone;
});

export const ZSuppressionsQuery = z.object({
  q: optionalQuery(z.string().trim().max(100)),
  cursor: optionalQuery(z.string().max(40)),
});
export type TSuppressionsQuery = z.infer<typeof ZSuppressionsQuery>;

export const ZCreateSuppressionRequest = z
  .object({
    phone: ZSuppressionPhone.describe('The number, with its country code (an Indian mobile may omit 91)'),
    reason: z.string().trim().max(SUPPRESSION_REASON_MAX_LENGTH).optional().describe('Why, for people reading the list'),
  })
  .meta({ id: 'CreateSuppressionRequest', examples: [{ phone: '919876543210', reason: 'Asked on a call not to be messaged' }] });
export type TCreateSuppressionRequest = z.infer<typeof ZCreateSuppressionRequest>;

export const ZSuppression = z
  .object({
    phone: z.string().describe('The number, digits with country code'),
    source: z.enum(SUPPRESSION_SOURCES).describe('keyword_reply, button, preference_webhook (Meta: marketing messages stopped), send_error (Meta refused: 131050), manual, import'),
    reason: z.string().describe('What a person wrote, or the reply that opted out; may be empty'),
    created_at: z.iso.datetime(),
  })
  .meta({ id: 'Suppression', examples: [{ phone: '919876543210', source: 'keyword_reply', reason: 'STOP', created_at: '2026-12-07T09:30:00.000Z' }] });
export type TSuppression = z.infer<typeof ZSuppression>;

export const ZSuppressionsPage = z
  .object({
    data: z.array(ZSuppression),
    has_more: z.boolean(),
    next_cursor: z.string().nullable().describe('Pass as cursor for the next page; null on the last page'),
  })
  .meta({
    id: 'SuppressionsPage',
    examples: [{ data: [{ phone: '919876543210', source: 'manual', reason: 'Asked on a call', created_at: '2026-12-07T09:30:00.000Z' }], has_more: false, next_cursor: null }],
  });
export type TSuppressionsPage = z.infer<typeof ZSuppressionsPage>;

export const ZImportSuppressionsRequest = z
  .object({ csv: z.string().max(2_000_000).describe('The CSV text: a phone column (found by its header, else the first) and an optional reason column') })
  .meta({ id: 'ImportSuppressionsRequest', examples: [{ csv: 'phone,reason\r\n919876543210,Asked on a call\r\n' }] });
export type TImportSuppressionsRequest = z.infer<typeof ZImportSuppressionsRequest>;

export const ZImportSuppressionsResult = z
  .object({ added: z.number().int(), skipped: z.number().int().describe('Already listed'), invalid: z.number().int().describe('Rows not read as a number') })
  .meta({ id: 'ImportSuppressionsResult', examples: [{ added: 1, skipped: 0, invalid: 0 }] });
export type TImportSuppressionsResult = z.infer<typeof ZImportSuppressionsResult>;

const optIn = new Set(OPT_IN_KEYWORDS.map(normaliseReply));

export const ZOptOutKeywords = z
  .array(z.string().trim().min(1).max(OPT_OUT_KEYWORD_MAX_LENGTH, { error: m.keywordTooLong.replace('{max}', String(OPT_OUT_KEYWORD_MAX_LENGTH)) }))
  .min(1, { error: m.keywordsEmpty })
  .max(OPT_OUT_KEYWORDS_MAX, { error: m.keywordsTooMany.replace('{max}', String(OPT_OUT_KEYWORDS_MAX)) })
  .refine((keywords) => keywords.every((k) => normaliseReply(k) !== '' && !optIn.has(normaliseReply(k))), { error: m.keywordIsOptIn });

export const ZOptOutKeywordsRequest = z.object({ keywords: ZOptOutKeywords.nullable().describe('null restores the defaults') });
export type TOptOutKeywordsRequest = z.infer<typeof ZOptOutKeywordsRequest>;

export const ZOptOutKeywordsResponse = z.object({ keywords: z.array(z.string()), defaults: z.array(z.string()), custom: z.boolean() });
export type TOptOutKeywordsResponse = z.infer<typeof ZOptOutKeywordsResponse>;

export const ZReplyFlag = z.object({ id: z.number().int(), phone: z.string(), text: z.string(), received_at: z.iso.datetime() });
export type TReplyFlag = z.infer<typeof ZReplyFlag>;

export const ZReplyFlagDecision = z.object({ decision: z.enum(['suppress', 'dismiss']) });
export type TReplyFlagDecision = z.infer<typeof ZReplyFlagDecision>;
