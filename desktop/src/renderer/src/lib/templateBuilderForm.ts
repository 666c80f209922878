/**
 * The template builder's react-hook-form schema. The form's shape differs from the request (a
 * chosen file, the stored header, examples of variables since deleted, the authentication
 * options as typed), so its values are checked by running the shared request schemas the server
 * validates template creation with (`ZTemplateRequest`, `ZAuthenticationTemplateRequest`) on what
 * the form would send, and the output is that submission.
 */
import { z } from 'zod';
import { BUTTON_TYPES, HEADER_TYPES, OTP_TYPES, TEMPLATE_CATEGORIES } from '@shared/templates';
import type { FieldErrors } from './forms';
import { isMediaHeaderType } from './headerMedia';
import type { StoredHeaderMedia, TemplateForm } from './templateBuilder';
import { validateTemplateForm, type TemplateSubmission } from './templatePayload';

const ZButtonDraft = z.object({
  key: z.number(),
  type: z.enum(BUTTON_TYPES),
  text: z.string(),
  url: z.string(),
  phone_number: z.string(),
  optOut: z.boolean().optional(),
});

const ZStoredHeader = z.object({ type: z.enum(HEADER_TYPES).refine(isMediaHeaderType), name: z.string().nullable(), url: z.string() });

export const ZTemplateFormValues = z.object({
  name: z.string(),
  category: z.enum(TEMPLATE_CATEGORIES),
  language: z.string(),
  headerType: z.enum(HEADER_TYPES),
  headerText: z.string(),
  headerFile: z.custom<File | null>((value) => value === null || value instanceof File),
  storedHeader: z.custom<StoredHeaderMedia | null>((value) => value === null || ZStoredHeader.safeParse(value).success),
  bodyText: z.string(),
  footerText: z.string(),
  buttons: z.array(ZButtonDraft),
  variableExamples: z.record(z.string(), z.string()),
  otpType: z.enum(OTP_TYPES),
  otpButtonText: z.string(),
  codeExpirationMinutes: z.string(),
  addSecurityRecommendation: z.boolean(),
  nextButtonKey: z.number(),
}) satisfies z.ZodType<TemplateForm>;

/**
 * Where a message of the request's checks is shown in the form: the request's field names are
 * the server's (they also come back from it), the form's are the builder's.
 */
const FORM_FIELD_OF: Record<string, string> = {
  otp_type: 'otpType',
  otp_button_text: 'otpButtonText',
  code_expiration_minutes: 'codeExpirationMinutes',
  headerMedia: 'headerFile',
  // A message about the buttons as a whole (too many, mixed kinds) sits at the array's root.
  buttons: 'buttons.root',
};

/** The form path a request field's message belongs to (`buttons.2` is the third row). */
export function formFieldOf(requestField: string): string {
  if (requestField.startsWith('variableExamples')) return 'variableExamples';
  return FORM_FIELD_OF[requestField] ?? requestField;
}

/** And back: the request field a form error is shown under, for the screen's sections. */
export function requestFieldsOf(errors: Record<string, string>): FieldErrors {
  const back = Object.fromEntries(Object.entries(FORM_FIELD_OF).map(([request, form]) => [form, request]));
  return Object.fromEntries(Object.entries(errors).map(([field, message]) => [back[field] ?? field, message]));
}

/**
 * The builder's schema. `isSubmit` says, when the form is checked, which of the two save
 * actions was pressed (a draft and a submission are the same fields sent with a different flag).
 */
export function templateBuilderFormSchema(isSubmit: () => boolean): z.ZodType<TemplateSubmission, TemplateForm> {
  return ZTemplateFormValues.transform((form, context) => {
    const validation = validateTemplateForm(form, isSubmit());
    if (validation.ok) return validation.submission;
    // One message per field, in screen order, so focus and the toast read top to bottom.
    for (const [field, message] of Object.entries(validation.errors)) {
      context.addIssue({ code: 'custom', path: formFieldOf(field).split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part)), message });
    }
    return z.NEVER;
  });
}
