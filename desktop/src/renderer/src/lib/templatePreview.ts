/**
 * A stored template as the WhatsApp message it becomes: header, body with its examples filled
 * in, footer and buttons (with where each button leads). Authentication templates carry only
 * Meta's flags, so their text is written here in Meta's wording.
 */
import { BUTTON_TYPE_LABELS, componentValues, renderButtonUrl, renderTemplateText } from '@shared/templates';
import type { TTemplate, TTemplateComponent } from '@shared/types';

export type TemplatePreviewSource = Pick<TTemplate, 'category' | 'components' | 'variableExamples' | 'headerMediaUrl' | 'headerMediaName'>;

export type PreviewHeader =
  | { kind: 'text'; text: string }
  | { kind: 'media'; format: 'IMAGE' | 'VIDEO' | 'DOCUMENT'; url: string | null; name: string | null };

export interface PreviewButton {
  type: string;
  text: string;
  /** The URL or phone number the button opens; null for quick replies and OTP buttons. */
  target: string | null;
}

export interface TemplatePreview {
  header: PreviewHeader | null;
  body: string;
  footer: string | null;
  buttons: PreviewButton[];
}

/** The code an authentication preview shows when the template has no example for {{1}}. */
export const SAMPLE_OTP_CODE = '123456';

function component(source: TemplatePreviewSource, type: TTemplateComponent['type']): TTemplateComponent | undefined {
  // Defensive: a template stored by an older client may lack components altogether.
  return Array.isArray(source.components) ? source.components.find((c) => c?.type === type) : undefined;
}

/** Meta's authentication body: the code, then the optional security sentence. */
export function authenticationBodyText(code: string, addSecurityRecommendation: boolean): string {
  const text = `${code} is your verification code.`;
  return addSecurityRecommendation ? `${text} For your security, do not share this code.` : text;
}

/** Meta's authentication footer, or null without a valid expiry. */
export function authenticationFooterText(minutes: number | string | undefined): string | null {
  const value = Number(minutes);
  if (!Number.isInteger(value) || value <= 0) return null;
  return `This code expires in ${value} ${value === 1 ? 'minute' : 'minutes'}.`;
}

/** Examples left empty keep their {{n}} token visible rather than leaving a hole in the text. */
function filledExamples(examples: Record<string, string> | null | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(examples ?? {}).filter(([, value]) => typeof value === 'string' && value.trim() !== ''));
}

function previewHeader(source: TemplatePreviewSource, values: Record<string, string>): PreviewHeader | null {
  const header = component(source, 'HEADER');
  if (!header) return null;
  if (header.format && header.format !== 'TEXT') {
    return { kind: 'media', format: header.format, url: source.headerMediaUrl, name: source.headerMediaName };
  }
  // The header's own values (`header_1`), apart from the body's {{1}}.
  const text = header.text?.trim() ? renderTemplateText(header.text, componentValues(values, 'header')) : '';
  return text ? { kind: 'text', text } : null;
}

export function templatePreview(source: TemplatePreviewSource): TemplatePreview {
  const values = filledExamples(source.variableExamples);
  const body = component(source, 'BODY');
  const footer = component(source, 'FOOTER');
  const buttons = component(source, 'BUTTONS')?.buttons ?? [];

  if (source.category === 'AUTHENTICATION') {
    const code = values['1'] ?? SAMPLE_OTP_CODE;
    const otp = buttons.filter((button) => button.type === 'OTP');
    return {
      header: null,
      body: body?.text?.trim()
        ? renderTemplateText(body.text, { ...values, '1': code })
        : authenticationBodyText(code, body?.add_security_recommendation ?? false),
      footer: footer?.text?.trim() ? footer.text : authenticationFooterText(footer?.code_expiration_minutes),
      buttons: (otp.length > 0 ? otp : [{ type: 'OTP', text: '' }]).map((button) => ({
        type: 'OTP',
        text: button.text?.trim() || BUTTON_TYPE_LABELS.OTP,
        target: null,
      })),
    };
  }

  return {
    header: previewHeader(source, values),
    body: body?.text ? renderTemplateText(body.text, values) : '',
    footer: footer?.text?.trim() ? renderTemplateText(footer.text, values) : null,
    buttons: buttons.map((button, index) => ({
      type: button.type,
      text: button.text ?? '',
      target:
        button.type === 'URL'
          ? // The link's own value (`button_{index}_url`), never the body's {{1}}.
            renderButtonUrl(button.url ?? '', values, index)
          : button.type === 'PHONE_NUMBER'
            ? (button.phone_number ?? '')
            : null,
    })),
  };
}
