/**
 * The template builder's form values and the edits that reach past one field (spec 002 "Template
 * create and edit"): the name's normalisation, the authentication category clearing the
 * free-form parts, default examples for new variables. react-hook-form holds the values; these
 * pure functions say what an edit changes, so the rules are tested without a browser.
 */
import { META_STOP_PROMOTIONS_BUTTON_TEXT } from '@shared/optOutKeywords';
import { TEMPLATE_LIMITS } from '@shared/constants';
import {
  BUTTON_TYPES,
  DEFAULT_TEMPLATE_LANGUAGE,
  HEADER_TYPES,
  nextVariableNumber,
  normaliseTemplateName,
  OTP_TYPES,
  sampleExampleFor,
  templateVariableList,
  type HeaderType,
  type MediaHeaderType,
  type OtpType,
  type TemplateCategory,
  type TemplateVariable,
} from '@shared/templates';
import type { TTemplate, TTemplateComponent } from '@shared/types';
import { isMediaHeaderType } from './headerMedia';

export type BuilderButtonType = (typeof BUTTON_TYPES)[number];

export interface ButtonDraft {
  /** Stable React key: rows are removed from the middle, so the index cannot be the key. */
  key: number;
  type: BuilderButtonType;
  text: string;
  url: string;
  phone_number: string;
  /** A quick reply whose tap opts the sender out (Meta's "Stop promotions"). */
  optOut?: boolean;
}

/** A header file already stored on the server (edit mode): kept unless the user replaces it. */
export interface StoredHeaderMedia {
  type: MediaHeaderType;
  name: string | null;
  /** Path of GET /api/templates/:id/media. */
  url: string;
}

export interface TemplateForm {
  name: string;
  category: TemplateCategory;
  language: string;
  headerType: HeaderType;
  headerText: string;
  /** A newly chosen header file; null keeps `storedHeader` (edit) or means none yet. */
  headerFile: File | null;
  storedHeader: StoredHeaderMedia | null;
  bodyText: string;
  footerText: string;
  buttons: ButtonDraft[];
  /** Examples by variable name; may hold entries for variables since deleted (they are not sent). */
  variableExamples: Record<string, string>;
  otpType: OtpType;
  otpButtonText: string;
  /** As typed, so that a half-typed or empty value is not silently replaced. */
  codeExpirationMinutes: string;
  addSecurityRecommendation: boolean;
  /** Next ButtonDraft key. */
  nextButtonKey: number;
}

export function emptyTemplateForm(): TemplateForm {
  return {
    name: '',
    category: 'MARKETING',
    language: DEFAULT_TEMPLATE_LANGUAGE,
    headerType: 'none',
    headerText: '',
    headerFile: null,
    storedHeader: null,
    bodyText: '',
    footerText: '',
    buttons: [],
    variableExamples: {},
    otpType: 'COPY_CODE',
    otpButtonText: '',
    codeExpirationMinutes: String(TEMPLATE_LIMITS.codeExpiryMinutesDefault),
    addSecurityRecommendation: true,
    nextButtonKey: 1,
  };
}

function isBuilderButtonType(type: string): type is BuilderButtonType {
  return (BUTTON_TYPES as readonly string[]).includes(type);
}

function component(template: TTemplate, type: TTemplateComponent['type']): TTemplateComponent | undefined {
  // Defensive: a stored template from an older client may lack components altogether.
  return Array.isArray(template.components) ? template.components.find((c) => c?.type === type) : undefined;
}

/** The form for editing a stored template. */
export function templateFormFrom(template: TTemplate): TemplateForm {
  const base = emptyTemplateForm();
  const header = component(template, 'HEADER');
  const footer = component(template, 'FOOTER');
  const storedButtons = component(template, 'BUTTONS')?.buttons ?? [];
  const headerType: HeaderType = (HEADER_TYPES as readonly string[]).includes(template.headerType)
    ? template.headerType
    : header?.format === 'TEXT'
      ? 'text'
      : 'none';
  const buttons: ButtonDraft[] = storedButtons
    .filter((button) => isBuilderButtonType(button.type))
    .map((button, index) => ({
      key: index + 1,
      type: button.type as BuilderButtonType,
      text: button.text ?? '',
      url: button.url ?? '',
      phone_number: button.phone_number ?? '',
      ...(button.opt_out === true ? { optOut: true } : {}),
    }));
  const otpButton = storedButtons.find((button) => button.type === 'OTP');
  const body = component(template, 'BODY');
  return {
    ...base,
    name: template.name,
    category: template.category,
    language: template.language || base.language,
    headerType,
    headerText: headerType === 'text' ? (header?.text ?? '') : '',
    storedHeader:
      isMediaHeaderType(headerType) && template.headerMediaUrl
        ? { type: headerType, name: template.headerMediaName, url: template.headerMediaUrl }
        : null,
    bodyText: template.category === 'AUTHENTICATION' ? '' : (body?.text ?? ''),
    footerText: template.category === 'AUTHENTICATION' ? '' : (footer?.text ?? ''),
    buttons,
    variableExamples: { ...(template.variableExamples ?? {}) },
    otpType: (OTP_TYPES as readonly string[]).includes(otpButton?.otp_type ?? '') ? (otpButton?.otp_type as OtpType) : base.otpType,
    otpButtonText: otpButton?.text ?? '',
    codeExpirationMinutes: String(footer?.code_expiration_minutes ?? base.codeExpirationMinutes),
    addSecurityRecommendation: body?.add_security_recommendation ?? base.addSecurityRecommendation,
    nextButtonKey: buttons.length + 1,
  };
}

/**
 * The variables the form uses, keyed by component (the header's {{1}} is `header_1`, a URL
 * button's `button_{index}_url`, the body's stay `1`): header text counts only for a text header.
 */
export function formVariableDefinitions(form: Pick<TemplateForm, 'headerType' | 'headerText' | 'bodyText' | 'buttons'>): TemplateVariable[] {
  return templateVariableList({
    headerText: form.headerType === 'text' ? form.headerText : '',
    bodyText: form.bodyText,
    buttons: form.buttons,
  });
}

/** The keys of the form's variables (see formVariableDefinitions). */
export function formVariables(form: Pick<TemplateForm, 'headerType' | 'headerText' | 'bodyText' | 'buttons'>): string[] {
  return formVariableDefinitions(form).map((variable) => variable.key);
}

/**
 * The changed fields plus a default example for every variable they bring in (spec: "Each
 * variable gets a default example value"); an example already there, even emptied, stays.
 */
function withDefaultExamples(form: TemplateForm, changed: Partial<TemplateForm>): Partial<TemplateForm> {
  const next = { ...form, ...changed };
  const missing = formVariableDefinitions(next).filter((variable) => !(variable.key in next.variableExamples));
  if (missing.length === 0) return changed;
  const variableExamples = { ...next.variableExamples };
  for (const variable of missing) variableExamples[variable.key] = sampleExampleFor(variable.name);
  return { ...changed, variableExamples };
}

/** Add Variable: the next numbered token at the end of the body, spaced from the text before it. */
export function appendVariable(bodyText: string, variable: number): string {
  const token = `{{${variable}}}`;
  if (bodyText === '' || /\s$/.test(bodyText)) return `${bodyText}${token}`;
  return `${bodyText} ${token}`;
}

type SimpleField = 'language' | 'footerText' | 'otpType' | 'otpButtonText' | 'codeExpirationMinutes' | 'addSecurityRecommendation';
type SetEdit = { [K in SimpleField]: { type: 'set'; field: K; value: TemplateForm[K] } }[SimpleField];

export type ButtonPatch = Partial<Pick<ButtonDraft, 'type' | 'text' | 'url' | 'phone_number'>>;

/** An edit whose effect reaches past its own field. Buttons are added and removed by the form's field array. */
export type BuilderEdit =
  | SetEdit
  | { type: 'setName'; value: string }
  | { type: 'setCategory'; value: TemplateCategory }
  | { type: 'setHeaderType'; value: HeaderType }
  | { type: 'setHeaderText'; value: string }
  | { type: 'setHeaderFile'; file: File | null }
  | { type: 'setBodyText'; value: string }
  | { type: 'addVariable' }
  | { type: 'setExample'; variable: string; value: string }
  | { type: 'updateButton'; index: number; patch: ButtonPatch };

/**
 * The fields an edit changes, to be written into the form (react-hook-form holds the values):
 * the rules that tie fields together stay here, in one tested place, not in event handlers.
 */
export function editedFields(form: TemplateForm, edit: BuilderEdit): Partial<TemplateForm> {
  switch (edit.type) {
    case 'set':
      return { [edit.field]: edit.value };
    case 'setName':
      return { name: normaliseTemplateName(edit.value) };
    case 'setCategory':
      if (edit.value === form.category) return {};
      // Spec: choosing AUTHENTICATION clears header, footer, buttons and body; WhatsApp writes
      // an authentication template's text itself.
      if (edit.value === 'AUTHENTICATION') {
        return {
          category: edit.value,
          headerType: 'none',
          headerText: '',
          headerFile: null,
          storedHeader: null,
          bodyText: '',
          footerText: '',
          buttons: [],
          variableExamples: {},
        };
      }
      return { category: edit.value };
    case 'setHeaderType':
      if (edit.value === form.headerType) return {};
      // A file chosen for one media type never fits another; the stored file stays on record and
      // counts again if the user returns to its type.
      return withDefaultExamples(form, { headerType: edit.value, headerFile: null });
    case 'setHeaderText':
      return withDefaultExamples(form, { headerText: edit.value });
    case 'setHeaderFile':
      return { headerFile: edit.file };
    case 'setBodyText':
      return withDefaultExamples(form, { bodyText: edit.value });
    case 'addVariable': {
      const next = nextVariableNumber(formVariables(form));
      const variable = String(next);
      return {
        bodyText: appendVariable(form.bodyText, next),
        variableExamples: { ...form.variableExamples, [variable]: sampleExampleFor(variable) },
      };
    }
    case 'setExample':
      return { variableExamples: { ...form.variableExamples, [edit.variable]: edit.value } };
    case 'updateButton':
      return withDefaultExamples(form, {
        buttons: form.buttons.map((button, index) => (index === edit.index ? { ...button, ...edit.patch } : button)),
      });
  }
}

/** The form with an edit applied. */
export function applyEdit(form: TemplateForm, edit: BuilderEdit): TemplateForm {
  return { ...form, ...editedFields(form, edit) };
}

/**
 * The row Add Button (or, with `optOut`, Add "Stop promotions") appends, with the next unused
 * key; null when the form has no room for it.
 */
export function newButton(form: Pick<TemplateForm, 'buttons' | 'nextButtonKey'>, optOut = false): ButtonDraft | null {
  if (form.buttons.length >= TEMPLATE_LIMITS.buttonsMax) return null;
  if (optOut && form.buttons.some((button) => button.optOut)) return null;
  const row: ButtonDraft = { key: form.nextButtonKey, type: 'QUICK_REPLY', text: '', url: '', phone_number: '' };
  return optOut ? { ...row, text: META_STOP_PROMOTIONS_BUTTON_TEXT, optOut: true } : row;
}

/** Whether a media header is satisfied by the stored file (edit mode, same type, nothing new chosen). */
export function keepsStoredHeader(form: Pick<TemplateForm, 'headerType' | 'headerFile' | 'storedHeader'>): boolean {
  return !form.headerFile && form.storedHeader !== null && form.storedHeader.type === form.headerType;
}
