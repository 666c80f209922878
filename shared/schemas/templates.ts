import { z } from 'zod';
import { TEMPLATE_LIMITS } from '../constants';
import { fillMessage, messages } from '../messages';
import {
  BUTTON_TYPES,
  HEADER_TYPES,
  OTP_TYPES,
  TEMPLATE_LANGUAGE_CODES,
  TEMPLATE_NAME_PATTERN,
  TEMPLATE_STATUSES,
} from '../templates';

const t = messages.templates;

const ZTemplateName = z
  .string({ error: t.nameInvalid })
  .trim()
  .regex(TEMPLATE_NAME_PATTERN, { error: t.nameInvalid });

const ZLanguage = z.enum(TEMPLATE_LANGUAGE_CODES, { error: t.languageInvalid });

/** Form fields arrive as strings in multipart bodies; JSON clients may send arrays and booleans. */
function jsonField<T extends z.ZodType>(schema: T, fallback: z.input<T>) {
  return z.preprocess((value) => {
    if (value === undefined || value === null || value === '') return fallback;
    if (typeof value !== 'string') return value;
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  }, schema);
}

const ZBooleanField = z.preprocess((value) => value === true || value === 'true' || value === '1' || value === 'on', z.boolean());

export const ZTemplateButton = z.object({
  type: z.string(),
  text: z.string().optional().default(''),
  url: z.string().optional(),
  phone_number: z.string().optional(),
  /** A quick reply whose tap opts the sender out (Meta's "Stop promotions" on marketing templates). Ours only: never sent to Meta. */
  opt_out: z.boolean().optional(),
});
export type TTemplateButton = z.infer<typeof ZTemplateButton>;

const URL_PATTERN = /^https?:\/\/\S+$/i;
const BUTTON_PHONE_PATTERN = /^\+?[0-9\s\-()]+$/;

/** Button rules with the spec's 1-based messages ("Button 2 must have text"). */
export function buttonIssues(buttons: readonly TTemplateButton[]): { path: (string | number)[]; message: string }[] {
  const issues: { path: (string | number)[]; message: string }[] = [];
  if (buttons.length > TEMPLATE_LIMITS.buttonsMax) issues.push({ path: ['buttons'], message: t.tooManyButtons });
  buttons.forEach((button, index) => {
    const n = index + 1;
    const at = (message: string) => issues.push({ path: ['buttons', index], message: fillMessage(message, { n }) });
    if (!(BUTTON_TYPES as readonly string[]).includes(button.type)) return at(t.buttonTypeInvalid);
    if (!button.text.trim()) return at(t.buttonTextRequired);
    if (button.text.trim().length > TEMPLATE_LIMITS.buttonTextMax) return at(t.buttonTextTooLong);
    if (button.type === 'URL' && !URL_PATTERN.test(button.url?.trim() ?? '')) return at(t.buttonUrlInvalid);
    if (button.type === 'PHONE_NUMBER') {
      const phone = button.phone_number?.trim() ?? '';
      if (!BUTTON_PHONE_PATTERN.test(phone) || phone.replace(/\D/g, '').length < 5) return at(t.buttonPhoneInvalid);
    }
    return undefined;
  });
  return issues;
}

/**
 * A marketing or utility template as the builder sends it (POST /api/templates, multipart):
 * name, category, language, headerType, headerText (or a headerMedia file), bodyText, footerText,
 * buttons (JSON), variableExamples (JSON), submit_to_whatsapp.
 */
export const ZTemplateRequest = z
  .object({
    name: ZTemplateName,
    category: z.enum(['MARKETING', 'UTILITY', 'AUTHENTICATION'], { error: t.categoryInvalid }),
    language: ZLanguage,
    headerType: z.enum(HEADER_TYPES).optional(),
    headerText: z.string().optional().default(''),
    bodyText: z.string().optional().default(''),
    footerText: z.string().optional().default(''),
    buttons: jsonField(z.array(ZTemplateButton, { error: t.buttonTypeInvalid }), []),
    variableExamples: jsonField(z.record(z.string(), z.string()), {}),
    submit_to_whatsapp: ZBooleanField.optional().default(false),
  })
  .superRefine((data, ctx) => {
    if (data.category === 'AUTHENTICATION') {
      ctx.addIssue({ code: 'custom', path: ['category'], message: t.authenticationEndpoint });
      return;
    }
    const headerType = data.headerType ?? (data.headerText.trim() ? 'text' : 'none');
    if (headerType === 'text' && !data.headerText.trim()) ctx.addIssue({ code: 'custom', path: ['headerText'], message: t.headerTextRequired });
    if (data.headerText.trim().length > TEMPLATE_LIMITS.headerTextMax) ctx.addIssue({ code: 'custom', path: ['headerText'], message: t.headerTextTooLong });
    if (!data.bodyText.trim()) ctx.addIssue({ code: 'custom', path: ['bodyText'], message: t.bodyRequired });
    if (data.footerText.trim().length > TEMPLATE_LIMITS.footerTextMax) ctx.addIssue({ code: 'custom', path: ['footerText'], message: t.footerTooLong });
    for (const issue of buttonIssues(data.buttons)) ctx.addIssue({ code: 'custom', ...issue });
  });
export type TTemplateRequest = z.input<typeof ZTemplateRequest>;

/** POST /api/templates/authentication (JSON): always submitted, never a draft. */
export const ZAuthenticationTemplateRequest = z.object({
  name: ZTemplateName,
  language: ZLanguage,
  otp_type: z.enum(OTP_TYPES, { error: t.otpTypeInvalid }).default('COPY_CODE'),
  otp_button_text: z
    .string()
    .trim()
    .max(TEMPLATE_LIMITS.otpButtonTextMax, { error: t.otpButtonTextTooLong })
    .optional()
    .transform((text) => text || 'Copy Code'),
  code_expiration_minutes: z.coerce
    .number({ error: t.codeExpiryInvalid })
    .int({ error: t.codeExpiryInvalid })
    .min(TEMPLATE_LIMITS.codeExpiryMinutesMin, { error: t.codeExpiryInvalid })
    .max(TEMPLATE_LIMITS.codeExpiryMinutesMax, { error: t.codeExpiryInvalid })
    .default(TEMPLATE_LIMITS.codeExpiryMinutesDefault),
  add_security_recommendation: z.boolean().optional().default(true),
  allow_category_change: z.boolean().optional().default(false),
});
export type TAuthenticationTemplateRequest = z.input<typeof ZAuthenticationTemplateRequest>;

/** PUT /api/admin/templates/{templateId}/status */
export const ZTemplateStatusRequest = z
  .object({
    status: z.enum(['APPROVED', 'REJECTED', 'DISABLED'], { error: t.statusInvalid }),
    reason: z.string().trim().max(500).optional(),
  })
  .superRefine((data, ctx) => {
    if (data.status === 'REJECTED' && !data.reason) ctx.addIssue({ code: 'custom', path: ['reason'], message: t.rejectionReasonRequired });
    if (data.status === 'DISABLED' && !data.reason) ctx.addIssue({ code: 'custom', path: ['reason'], message: t.disableReasonRequired });
  });
export type TTemplateStatusRequest = z.input<typeof ZTemplateStatusRequest>;

export const ZTemplateListQuery = z.object({
  page: z.coerce.number().int().min(1).catch(1),
  limit: z.coerce.number().int().min(1).max(100).catch(20),
  status: z.string().trim().toUpperCase().optional().catch(undefined),
  category: z.string().trim().toUpperCase().optional().catch(undefined),
});

/**
 * GET /api/admin/templates: the review queue across users. Status defaults to PENDING (ALL lists
 * every status); `search` matches the template name or the owner's name or username; `userId`
 * narrows to one owner. Unknown values fall back to the defaults rather than failing a filter bar.
 */
export const ZAdminTemplateQueueQuery = z.object({
  status: z.enum([...TEMPLATE_STATUSES, 'ALL']).catch('PENDING').default('PENDING'),
  category: z.enum(['MARKETING', 'UTILITY', 'AUTHENTICATION']).optional().catch(undefined),
  search: z.string().trim().max(100).optional().catch(undefined),
  userId: z.coerce.number().int().positive().optional().catch(undefined),
  page: z.coerce.number().int().min(1).catch(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).catch(20).default(20),
});
export type TAdminTemplateQueueQuery = z.input<typeof ZAdminTemplateQueueQuery>;

export const ZTemplateDetailsRequest = z.object({
  template_name: z.string({ error: messages.templates.notFound }).trim().min(1, { error: messages.templates.notFound }),
  language: ZLanguage.optional(),
});
