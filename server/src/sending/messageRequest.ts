/**
 * Turns a stored template and one recipient's variable values into the Cloud API's send-time
 * components, in the shape of Meta's `TemplateMessage` (server/src/sending/metaSendBody.test.ts
 * holds every kind to Meta's OpenAPI file): header parameters (text variables, or the header
 * file's link, a document with its file name), body parameters (positional for {{1}}, {{2}}...; by
 * `parameter_name` for named ones), one `button` component per URL button whose link carries a
 * variable, and one per quick-reply button carrying our reference as its payload. Button indexes
 * are strings, as Meta's schema types them.
 */
import { buttonVariableKey, componentValues, extractVariables } from '@shared/templates';
import type { TTemplateComponent } from '@shared/types';
import type { TemplateSendRequest, TSendComponent, TSendParameter } from './providers/types';

export interface TemplateShape {
  name: string;
  language: string;
  category: string;
  components: TTemplateComponent[];
}

export interface HeaderMedia {
  type: 'image' | 'video' | 'document';
  link: string;
  /** The uploaded file's own name: a document header shows it to the recipient (else Meta shows a generated one). */
  filename?: string | null;
}

function textParameters(text: string | undefined, values: Record<string, string>): TSendParameter[] {
  return extractVariables({ bodyText: text ?? '' }).map((variable) =>
    /^\d+$/.test(variable) ? { type: 'text', text: values[variable] ?? '' } : { type: 'text', text: values[variable] ?? '', parameter_name: variable },
  );
}

/** The header's media parameter: a document carries its file name, images and videos only their link. */
function mediaParameter(media: HeaderMedia): TSendParameter {
  if (media.type === 'image') return { type: 'image', image: { link: media.link } };
  if (media.type === 'video') return { type: 'video', video: { link: media.link } };
  return { type: 'document', document: { link: media.link, ...(media.filename ? { filename: media.filename } : {}) } };
}

/**
 * `reference` is our reference for this send (the `biz_opaque_callback_data` the status path
 * reads): each quick-reply button carries it as its payload, so a tap comes back naming the
 * message it answers. Without one, the buttons go without a payload (Meta then returns the
 * button's text).
 */
export function sendComponents(template: TemplateShape, values: Record<string, string>, headerMedia: HeaderMedia | null, reference?: string): TSendComponent[] {
  const components: TSendComponent[] = [];
  const header = template.components.find((c) => c.type === 'HEADER');
  const body = template.components.find((c) => c.type === 'BODY');
  const buttons = template.components.find((c) => c.type === 'BUTTONS')?.buttons ?? [];

  if (template.category === 'AUTHENTICATION') {
    // Authentication templates carry the code twice: in the body and in the copy-code button.
    const code = values['1'] ?? Object.values(values)[0] ?? '';
    components.push({ type: 'body', parameters: [{ type: 'text', text: code }] });
    // Meta sends the copy-code (and one-tap) button's code as a `url` button's text parameter.
    if (buttons.length > 0) components.push({ type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: code }] });
    return components;
  }

  if (header?.format && header.format !== 'TEXT' && headerMedia) {
    components.push({ type: 'header', parameters: [mediaParameter({ ...headerMedia, type: header.format.toLowerCase() as HeaderMedia['type'] })] });
  } else if (header?.format === 'TEXT' || (header && !header.format)) {
    // Header variables have their own values (`header_1`), apart from the body's {{1}}.
    const parameters = textParameters(header.text, componentValues(values, 'header'));
    if (parameters.length > 0) components.push({ type: 'header', parameters });
  }

  const bodyParameters = textParameters(body?.text, values);
  if (bodyParameters.length > 0) components.push({ type: 'body', parameters: bodyParameters });

  buttons.forEach((button, index) => {
    if (button.type === 'QUICK_REPLY') {
      if (reference) components.push({ type: 'button', sub_type: 'quick_reply', index: String(index), parameters: [{ type: 'payload', payload: reference }] });
      return;
    }
    if (button.type !== 'URL') return;
    const variables = extractVariables({ bodyText: button.url ?? '' });
    if (variables.length === 0) return;
    // A URL button's variable is its own value (`button_{index}_url`); rows stored before keying used the shared name.
    const text = values[buttonVariableKey(index)] ?? values[variables[0] as string] ?? '';
    components.push({ type: 'button', sub_type: 'url', index: String(index), parameters: [{ type: 'text', text }] });
  });
  return components;
}

export function templateSendRequest(input: {
  phoneNumberId: string;
  to: string;
  template: TemplateShape;
  values: Record<string, string>;
  headerMedia: HeaderMedia | null;
  callbackData?: string;
}): TemplateSendRequest {
  return {
    phoneNumberId: input.phoneNumberId,
    to: input.to,
    template: { name: input.template.name, language: input.template.language, components: sendComponents(input.template, input.values, input.headerMedia, input.callbackData) },
    ...(input.callbackData ? { callbackData: input.callbackData } : {}),
  };
}
