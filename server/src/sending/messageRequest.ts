/**
 * Turns a stored template and one recipient's variable values into the Cloud API's send-time
 * components: header parameters (text variables or the header image link), body parameters
 * (positional for {{1}}, {{2}}...; by `parameter_name` for named ones), and one `button`
 * component per URL button whose link carries a variable.
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
}

function textParameters(text: string | undefined, values: Record<string, string>): TSendParameter[] {
  return extractVariables({ bodyText: text ?? '' }).map((variable) =>
    /^\d+$/.test(variable) ? { type: 'text', text: values[variable] ?? '' } : { type: 'text', text: values[variable] ?? '', parameter_name: variable },
  );
}

export function sendComponents(template: TemplateShape, values: Record<string, string>, headerMedia: HeaderMedia | null): TSendComponent[] {
  const components: TSendComponent[] = [];
  const header = template.components.find((c) => c.type === 'HEADER');
  const body = template.components.find((c) => c.type === 'BODY');
  const buttons = template.components.find((c) => c.type === 'BUTTONS')?.buttons ?? [];

  if (template.category === 'AUTHENTICATION') {
    // Authentication templates carry the code twice: in the body and in the copy-code button.
    const code = values['1'] ?? Object.values(values)[0] ?? '';
    components.push({ type: 'body', parameters: [{ type: 'text', text: code }] });
    if (buttons.length > 0) components.push({ type: 'button', sub_type: 'url', index: 0, parameters: [{ type: 'text', text: code }] });
    return components;
  }

  if (header?.format && header.format !== 'TEXT' && headerMedia) {
    const kind = header.format.toLowerCase() as HeaderMedia['type'];
    const parameter: TSendParameter =
      kind === 'image' ? { type: 'image', image: { link: headerMedia.link } } : kind === 'video' ? { type: 'video', video: { link: headerMedia.link } } : { type: 'document', document: { link: headerMedia.link } };
    components.push({ type: 'header', parameters: [parameter] });
  } else if (header?.format === 'TEXT' || (header && !header.format)) {
    // Header variables have their own values (`header_1`), apart from the body's {{1}}.
    const parameters = textParameters(header.text, componentValues(values, 'header'));
    if (parameters.length > 0) components.push({ type: 'header', parameters });
  }

  const bodyParameters = textParameters(body?.text, values);
  if (bodyParameters.length > 0) components.push({ type: 'body', parameters: bodyParameters });

  buttons.forEach((button, index) => {
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
    template: { name: input.template.name, language: input.template.language, components: sendComponents(input.template, input.values, input.headerMedia) },
    ...(input.callbackData ? { callbackData: input.callbackData } : {}),
  };
}
