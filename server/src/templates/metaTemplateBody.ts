/**
 * Our template as Meta's create request (`POST /{waba}/message_templates`; 360dialog takes the
 * same body): name, language, category, the parameter format and the components with the
 * `example` values Meta's review needs. Pure: the media header's handle (from the resumable
 * upload) is given in.
 */
import { extractVariables, renderTemplateText, sampleExampleFor, buttonVariableKey, headerVariableKey } from '@shared/templates';
import type { TTemplateComponent } from '@shared/types';

/** A button of Meta's create request. */
export type MetaTemplateButton =
  | { type: 'QUICK_REPLY'; text: string }
  | { type: 'URL'; text: string; url: string; example?: string[] }
  | { type: 'PHONE_NUMBER'; text: string; phone_number: string }
  | { type: 'OTP'; otp_type: string; text?: string };

export type MetaNamedExample = { param_name: string; example: string };

/** A component of Meta's create request. */
export type MetaTemplateComponent =
  | {
      type: 'HEADER';
      format: 'TEXT' | 'IMAGE' | 'VIDEO' | 'DOCUMENT';
      text?: string;
      example?: { header_text: string[] } | { header_text_named_params: MetaNamedExample[] } | { header_handle: string[] };
    }
  | { type: 'BODY'; text?: string; add_security_recommendation?: boolean; example?: { body_text: string[][] } | { body_text_named_params: MetaNamedExample[] } }
  | { type: 'FOOTER'; text?: string; code_expiration_minutes?: number }
  | { type: 'BUTTONS'; buttons: MetaTemplateButton[] };

export interface MetaTemplateCreateBody {
  name: string;
  language: string;
  category: 'MARKETING' | 'UTILITY' | 'AUTHENTICATION';
  /** `positional` ({{1}}) or `named` ({{first_name}}); authentication templates carry none. */
  parameter_format?: 'positional' | 'named';
  components: MetaTemplateComponent[];
}

/** What the body is built from: a stored template's columns. */
export interface TemplateForMeta {
  name: string;
  language: string;
  category: 'MARKETING' | 'UTILITY' | 'AUTHENTICATION';
  components: TTemplateComponent[];
  variableExamples: Record<string, string>;
}

const isPositional = (name: string) => /^\d+$/.test(name);

/**
 * The create body of a template. `headerHandle` is the uploaded sample of a media header (Meta
 * refuses a media header without one). A template whose header and body use named variables is
 * `named`; numbered ones (and none) `positional` (Meta takes one format per template).
 */
export function buildMetaTemplateBody(template: TemplateForMeta, options: { headerHandle?: string | null } = {}): MetaTemplateCreateBody {
  if (template.category === 'AUTHENTICATION') return authenticationBody(template);
  const header = template.components.find((c) => c.type === 'HEADER');
  const body = template.components.find((c) => c.type === 'BODY');
  const footer = template.components.find((c) => c.type === 'FOOTER');
  const buttons = template.components.find((c) => c.type === 'BUTTONS')?.buttons ?? [];
  const examples = template.variableExamples;
  const headerText = header?.format === 'TEXT' ? (header.text ?? '') : '';
  const bodyText = body?.text ?? '';
  const names = [...extractVariables({ headerText }), ...extractVariables({ bodyText })];
  const named = names.some((name) => !isPositional(name));
  const example = (key: string, name: string) => examples[key]?.trim() || examples[name]?.trim() || sampleExampleFor(name);

  const components: MetaTemplateComponent[] = [];
  if (header?.format === 'TEXT') {
    const vars = extractVariables({ headerText });
    const values = vars.map((name) => example(headerVariableKey(name), name));
    components.push({
      type: 'HEADER',
      format: 'TEXT',
      text: headerText,
      ...(vars.length === 0
        ? {}
        : named
          ? { example: { header_text_named_params: vars.map((name, i) => ({ param_name: name, example: values[i] as string })) } }
          : { example: { header_text: values } }),
    });
  } else if (header?.format) {
    components.push({ type: 'HEADER', format: header.format, ...(options.headerHandle ? { example: { header_handle: [options.headerHandle] } } : {}) });
  }
  const bodyVars = extractVariables({ bodyText });
  components.push({
    type: 'BODY',
    text: bodyText,
    ...(bodyVars.length === 0
      ? {}
      : named
        ? { example: { body_text_named_params: bodyVars.map((name) => ({ param_name: name, example: example(name, name) })) } }
        : { example: { body_text: [bodyVars.map((name) => example(name, name))] } }),
  });
  if (footer?.text) components.push({ type: 'FOOTER', text: footer.text });
  if (buttons.length > 0) {
    components.push({
      type: 'BUTTONS',
      buttons: buttons.map((button, index): MetaTemplateButton => {
        if (button.type === 'URL') {
          const url = button.url ?? '';
          const variable = extractVariables({ bodyText: url })[0];
          if (variable === undefined) return { type: 'URL', text: button.text, url };
          // Meta's URL button takes one variable, at the end, written {{1}} whatever the format.
          const value = examples[buttonVariableKey(index)]?.trim() || examples[variable]?.trim() || 'example';
          const fullExample = renderTemplateText(url, { [variable]: value });
          return { type: 'URL', text: button.text, url: url.replace(/\{\{\s*[A-Za-z0-9_]+\s*\}\}/, '{{1}}'), example: [fullExample] };
        }
        if (button.type === 'PHONE_NUMBER') return { type: 'PHONE_NUMBER', text: button.text, phone_number: button.phone_number ?? '' };
        return { type: 'QUICK_REPLY', text: button.text };
      }),
    });
  }
  return { name: template.name, language: template.language, category: template.category, parameter_format: named ? 'named' : 'positional', components };
}

/**
 * Meta's authentication template: its text is Meta's own, so the body carries only whether to add
 * the security recommendation, the footer only the code's lifetime, the button its OTP type.
 */
function authenticationBody(template: TemplateForMeta): MetaTemplateCreateBody {
  const body = template.components.find((c) => c.type === 'BODY');
  const footer = template.components.find((c) => c.type === 'FOOTER');
  const otp = template.components.find((c) => c.type === 'BUTTONS')?.buttons?.find((b) => b.type === 'OTP');
  const components: MetaTemplateComponent[] = [{ type: 'BODY', add_security_recommendation: Boolean(body?.add_security_recommendation) }];
  if (footer?.code_expiration_minutes) components.push({ type: 'FOOTER', code_expiration_minutes: footer.code_expiration_minutes });
  components.push({ type: 'BUTTONS', buttons: [{ type: 'OTP', otp_type: otp?.otp_type ?? 'COPY_CODE', ...(otp?.text ? { text: otp.text } : {}) }] });
  return { name: template.name, language: template.language, category: 'AUTHENTICATION', components };
}
