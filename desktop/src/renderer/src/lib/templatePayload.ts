/**
 * From the builder's form to what the server takes: validated with the shared schemas first
 * (spec 002: "Validation errors are shown together, joined by commas, in a toast"), then shaped
 * as the multipart body of POST/PUT /api/templates or the JSON of POST /api/templates/authentication.
 */
import type { z } from 'zod';
import { fillMessage, messages } from '@shared/messages';
import { zodIssuesToDetails, type TFieldMessage } from '@shared/schemas/common';
import {
  ZAuthenticationTemplateRequest,
  ZTemplateRequest,
  type TAuthenticationTemplateRequest,
  type TTemplateRequest,
} from '@shared/schemas/templates';
import type { FieldErrors } from './forms';
import { headerMediaError, isMediaHeaderType } from './headerMedia';
import { formVariables, keepsStoredHeader, type TemplateForm } from './templateBuilder';

const t = messages.templates;

export type TemplateRequestData = z.output<typeof ZTemplateRequest>;
export type AuthenticationRequestData = z.output<typeof ZAuthenticationTemplateRequest>;

export type TemplateSubmission =
  | { kind: 'standard'; request: TemplateRequestData; file: File | null }
  | { kind: 'authentication'; request: AuthenticationRequestData };

export type TemplateValidation =
  | { ok: true; submission: TemplateSubmission }
  | { ok: false; errors: FieldErrors; summary: string };

/** The fields in screen order, so that the toast reads top to bottom like the form. */
const FIELD_ORDER = [
  'name',
  'category',
  'language',
  'otp_type',
  'otp_button_text',
  'code_expiration_minutes',
  'headerType',
  'headerText',
  'headerMedia',
  'bodyText',
  'footerText',
  'buttons',
  'variableExamples',
];

function fieldRank(field: string): number {
  const rank = FIELD_ORDER.indexOf(field.split('.')[0] ?? field);
  return rank === -1 ? FIELD_ORDER.length : rank;
}

/** The request body of a marketing or utility template, before validation. */
export function buildTemplateRequest(form: TemplateForm, submit: boolean): TTemplateRequest {
  const variables = formVariables(form);
  return {
    name: form.name,
    category: form.category,
    language: form.language as TTemplateRequest['language'],
    headerType: form.headerType,
    headerText: form.headerType === 'text' ? form.headerText.trim() : '',
    bodyText: form.bodyText.trim(),
    footerText: form.footerText.trim(),
    // Only the field that belongs to the button's type goes: a URL typed before switching the
    // row to Quick Reply must not reach the server.
    buttons: form.buttons.map((button) => ({
      type: button.type,
      text: button.text.trim(),
      ...(button.type === 'URL' ? { url: button.url.trim() } : {}),
      ...(button.type === 'PHONE_NUMBER' ? { phone_number: button.phone_number.trim() } : {}),
      ...(button.type === 'QUICK_REPLY' && button.optOut ? { opt_out: true } : {}),
    })),
    // Examples of variables the user has since deleted are left behind.
    variableExamples: Object.fromEntries(variables.map((variable) => [variable, form.variableExamples[variable] ?? ''])),
    submit_to_whatsapp: submit,
  };
}

/** The JSON body of POST /api/templates/authentication (always submitted). */
export function buildAuthenticationRequest(form: TemplateForm): TAuthenticationTemplateRequest {
  return {
    name: form.name,
    language: form.language as TAuthenticationTemplateRequest['language'],
    otp_type: form.otpType,
    otp_button_text: form.otpButtonText,
    code_expiration_minutes: form.codeExpirationMinutes.trim(),
    add_security_recommendation: form.addSecurityRecommendation,
    allow_category_change: false,
  };
}

function headerMediaIssue(form: TemplateForm): TFieldMessage | null {
  if (!isMediaHeaderType(form.headerType)) return null;
  if (form.headerFile) {
    const message = headerMediaError(form.headerFile, form.headerType);
    return message ? { field: 'headerMedia', message } : null;
  }
  return keepsStoredHeader(form) ? null : { field: 'headerMedia', message: t.headerMediaRequired };
}

function failure(details: TFieldMessage[]): TemplateValidation {
  const sorted = [...details].sort((a, b) => fieldRank(a.field) - fieldRank(b.field));
  const errors: FieldErrors = {};
  for (const detail of sorted) errors[detail.field] ??= detail.message;
  return { ok: false, errors, summary: [...new Set(sorted.map((detail) => detail.message))].join(', ') };
}

/** Runs every check the server runs on the form's content, plus the header file's. */
export function validateTemplateForm(form: TemplateForm, submit: boolean): TemplateValidation {
  if (form.category === 'AUTHENTICATION') {
    const result = ZAuthenticationTemplateRequest.safeParse(buildAuthenticationRequest(form));
    if (!result.success) return failure(zodIssuesToDetails(result.error));
    return { ok: true, submission: { kind: 'authentication', request: result.data } };
  }
  const result = ZTemplateRequest.safeParse(buildTemplateRequest(form, submit));
  const details = result.success ? [] : zodIssuesToDetails(result.error);
  const mediaIssue = headerMediaIssue(form);
  if (mediaIssue) details.push(mediaIssue);
  if (!result.success || details.length > 0) return failure(details);
  return {
    ok: true,
    submission: { kind: 'standard', request: result.data, file: isMediaHeaderType(form.headerType) ? form.headerFile : null },
  };
}

/**
 * The multipart body of POST /api/templates and PUT /api/templates/:id. Lists and maps go as
 * JSON strings; headerMedia is left out when there is no new file, which keeps the stored one.
 */
export function templateFormData(request: TemplateRequestData, file: File | null): FormData {
  const body = new FormData();
  const headerType = request.headerType ?? 'none';
  body.append('name', request.name);
  body.append('category', request.category);
  body.append('language', request.language);
  body.append('headerType', headerType);
  body.append('headerText', headerType === 'text' ? request.headerText : '');
  if (file && isMediaHeaderType(headerType)) body.append('headerMedia', file, file.name);
  body.append('bodyText', request.bodyText);
  body.append('footerText', request.footerText);
  body.append('buttons', JSON.stringify(request.buttons));
  body.append('variableExamples', JSON.stringify(request.variableExamples));
  body.append('submit_to_whatsapp', request.submit_to_whatsapp ? 'true' : 'false');
  return body;
}

export type ButtonField = 'type' | 'text' | 'url' | 'phone_number';

/** Which input of button row `index` (0-based) an error for that row belongs to. */
export function buttonErrorField(message: string, index: number): ButtonField {
  const n = index + 1;
  if (message === fillMessage(t.buttonUrlInvalid, { n })) return 'url';
  if (message === fillMessage(t.buttonPhoneInvalid, { n })) return 'phone_number';
  if (message === fillMessage(t.buttonTypeInvalid, { n })) return 'type';
  return 'text';
}
