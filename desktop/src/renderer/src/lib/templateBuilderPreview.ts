/**
 * The builder's live preview: the form turned into the components of a stored template, so that
 * the builder and every View dialog draw the message through the same `templatePreview`.
 */
import { BUTTON_TYPE_LABELS } from '@shared/templates';
import type { TTemplateComponent } from '@shared/types';
import { isMediaHeaderType } from './headerMedia';
import { formVariables, type TemplateForm } from './templateBuilder';
import { templatePreview, type TemplatePreview, type TemplatePreviewSource } from './templatePreview';

const MEDIA_FORMAT = { image: 'IMAGE', video: 'VIDEO', document: 'DOCUMENT' } as const;

/** The form as the server would store it (media address left out: the screen knows the file). */
export function formPreviewSource(form: TemplateForm): TemplatePreviewSource {
  if (form.category === 'AUTHENTICATION') {
    const minutes = Number(form.codeExpirationMinutes);
    return {
      category: 'AUTHENTICATION',
      variableExamples: {},
      headerMediaUrl: null,
      headerMediaName: null,
      components: [
        { type: 'BODY', add_security_recommendation: form.addSecurityRecommendation },
        ...(Number.isInteger(minutes) && minutes > 0 ? [{ type: 'FOOTER' as const, code_expiration_minutes: minutes }] : []),
        { type: 'BUTTONS', buttons: [{ type: 'OTP', otp_type: form.otpType, text: form.otpButtonText }] },
      ],
    };
  }

  const components: TTemplateComponent[] = [];
  if (form.headerType === 'text') components.push({ type: 'HEADER', format: 'TEXT', text: form.headerText });
  if (isMediaHeaderType(form.headerType)) components.push({ type: 'HEADER', format: MEDIA_FORMAT[form.headerType] });
  components.push({ type: 'BODY', text: form.bodyText });
  if (form.footerText.trim()) components.push({ type: 'FOOTER', text: form.footerText });
  if (form.buttons.length > 0) {
    components.push({
      type: 'BUTTONS',
      buttons: form.buttons.map((button) => ({
        type: button.type,
        // A row whose text is not typed yet still shows as a button, named by its type.
        text: button.text.trim() || BUTTON_TYPE_LABELS[button.type],
        ...(button.type === 'URL' ? { url: button.url } : {}),
        ...(button.type === 'PHONE_NUMBER' ? { phone_number: button.phone_number } : {}),
      })),
    });
  }
  const storedName = form.storedHeader?.type === form.headerType ? form.storedHeader.name : null;
  return {
    category: form.category,
    components,
    variableExamples: Object.fromEntries(formVariables(form).map((variable) => [variable, form.variableExamples[variable] ?? ''])),
    headerMediaUrl: null,
    headerMediaName: form.headerFile?.name ?? storedName,
  };
}

export function formPreview(form: TemplateForm): TemplatePreview {
  return templatePreview(formPreviewSource(form));
}
