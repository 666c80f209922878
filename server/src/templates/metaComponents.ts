/**
 * A template as Meta lists it (`GET /{waba-id}/message_templates`), read into the shape Sandesh
 * stores (TTemplateComponent, shared/types.ts) with its examples keyed as the builder keys them
 * (shared/templates.ts): body "1" or "name", header "header_1", URL button "button_0_url".
 * Anything Sandesh cannot send as it stands (location headers, carousels, flows, catalogue or
 * coupon buttons, ...) is refused with the reason, so a sync counts it as failed.
 */
import {
  buttonVariableKey,
  headerVariableKey,
  sampleExampleFor,
  templateVariableList,
  type HeaderType,
} from '@shared/templates';
import type { TTemplateComponent } from '@shared/types';

export type ImportedComponents =
  | { ok: true; components: TTemplateComponent[]; headerType: HeaderType; variableExamples: Record<string, string> }
  | { ok: false; reason: string };

type Button = NonNullable<TTemplateComponent['buttons']>[number];

const MEDIA_HEADERS: Record<string, HeaderType> = { IMAGE: 'image', VIDEO: 'video', DOCUMENT: 'document' };
const PLAIN_BUTTONS = new Set(['QUICK_REPLY', 'URL', 'PHONE_NUMBER']);

function record(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.map((item) => (typeof item === 'string' || typeof item === 'number' ? String(item) : '')) : [];
}

/** Meta's named examples: `[{ param_name, example }]`. */
function namedExamples(value: unknown): [string, string][] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) => {
    const entry = record(item);
    const name = text(entry?.param_name);
    const example = entry?.example;
    return name && (typeof example === 'string' || typeof example === 'number') ? [[name, String(example)] as [string, string]] : [];
  });
}

/** Positional examples fill {{1}}, {{2}}... in order; named ones by their name. */
function componentExamples(example: Record<string, unknown> | null, positionalKey: string, namedKey: string): Map<string, string> {
  const found = new Map<string, string>();
  const positional = example?.[positionalKey];
  // The body's positional examples are one row in a list of rows; the header's a flat list.
  const row = Array.isArray(positional) && Array.isArray(positional[0]) ? strings(positional[0]) : strings(positional);
  row.forEach((value, index) => found.set(String(index + 1), value));
  for (const [name, value] of namedExamples(example?.[namedKey])) found.set(name, value);
  return found;
}

/**
 * Meta's URL button example is the whole link with its variable filled; Sandesh keeps only the
 * part that varies, as a send supplies it.
 */
function urlSuffixExample(url: string, example: string | undefined): string | undefined {
  if (example === undefined) return undefined;
  const prefix = url.split('{{')[0] ?? '';
  return prefix && example.startsWith(prefix) ? example.slice(prefix.length) : example;
}

/** Authentication templates list their code button as OTP, or (older accounts) as a URL carrying `otp_type`. */
function otpButton(button: Record<string, unknown>): Button | null {
  const type = text(button.type);
  const otpType = text(button.otp_type) ?? (type === 'URL' ? /[?&]otp_type=([A-Z_]+)/.exec(text(button.url) ?? '')?.[1] : undefined);
  if (type !== 'OTP' && !(type === 'URL' && otpType)) return null;
  return { type: 'OTP', otp_type: otpType ?? 'COPY_CODE', text: text(button.text) ?? 'Copy code' };
}

export function importMetaComponents(listed: unknown[], category: string): ImportedComponents {
  const components: TTemplateComponent[] = [];
  const examples = new Map<string, string>();
  let headerType: HeaderType = 'none';
  const buttonExamples = new Map<number, string | undefined>();

  for (const raw of listed) {
    const component = record(raw);
    const type = text(component?.type)?.toUpperCase();
    if (!component || !type) return { ok: false, reason: 'a component without a type' };
    const example = record(component.example);
    switch (type) {
      case 'HEADER': {
        const format = text(component.format)?.toUpperCase() ?? 'TEXT';
        if (format === 'TEXT') {
          headerType = 'text';
          components.push({ type: 'HEADER', format: 'TEXT', text: text(component.text) ?? '' });
          for (const [name, value] of componentExamples(example, 'header_text', 'header_text_named_params')) examples.set(headerVariableKey(name), value);
        } else if (MEDIA_HEADERS[format]) {
          headerType = MEDIA_HEADERS[format];
          components.push({ type: 'HEADER', format: format as 'IMAGE' | 'VIDEO' | 'DOCUMENT' });
        } else {
          return { ok: false, reason: `a ${format.toLowerCase()} header` };
        }
        break;
      }
      case 'BODY': {
        const body: TTemplateComponent = { type: 'BODY', text: text(component.text) ?? '' };
        if (typeof component.add_security_recommendation === 'boolean') body.add_security_recommendation = component.add_security_recommendation;
        components.push(body);
        for (const [name, value] of componentExamples(example, 'body_text', 'body_text_named_params')) examples.set(name, value);
        break;
      }
      case 'FOOTER': {
        const footer: TTemplateComponent = { type: 'FOOTER', text: text(component.text) ?? '' };
        if (typeof component.code_expiration_minutes === 'number') {
          footer.code_expiration_minutes = component.code_expiration_minutes;
          if (!footer.text) footer.text = `This code expires in ${component.code_expiration_minutes} minutes.`;
        }
        components.push(footer);
        break;
      }
      case 'BUTTONS': {
        const buttons: Button[] = [];
        for (const [index, item] of (Array.isArray(component.buttons) ? component.buttons : []).entries()) {
          const button = record(item);
          const buttonType = text(button?.type)?.toUpperCase() ?? '';
          if (!button) return { ok: false, reason: 'a button without a type' };
          const otp = category === 'AUTHENTICATION' ? otpButton(button) : null;
          if (otp) {
            buttons.push(otp);
            continue;
          }
          if (!PLAIN_BUTTONS.has(buttonType)) return { ok: false, reason: `a ${buttonType.toLowerCase() || 'typeless'} button` };
          const url = text(button.url);
          buttons.push({
            type: buttonType,
            text: text(button.text) ?? '',
            ...(buttonType === 'URL' ? { url: url ?? '' } : {}),
            ...(buttonType === 'PHONE_NUMBER' ? { phone_number: text(button.phone_number) ?? '' } : {}),
          });
          if (buttonType === 'URL' && url?.includes('{{')) buttonExamples.set(index, urlSuffixExample(url, strings(button.example)[0]));
        }
        components.push({ type: 'BUTTONS', buttons });
        break;
      }
      default:
        return { ok: false, reason: `a ${type.toLowerCase()} component` };
    }
  }

  if (!components.some((c) => c.type === 'BODY')) return { ok: false, reason: 'no body' };
  for (const [index, value] of buttonExamples) if (value !== undefined) examples.set(buttonVariableKey(index), value);

  // Every variable gets an example, as the builder's templates do: Meta's, or the sample value.
  const variables = templateVariableList({
    headerText: components.find((c) => c.type === 'HEADER' && c.format === 'TEXT')?.text,
    bodyText: components.find((c) => c.type === 'BODY')?.text,
    buttons: components.find((c) => c.type === 'BUTTONS')?.buttons ?? [],
  });
  const variableExamples = Object.fromEntries(variables.map((v) => [v.key, examples.get(v.key) ?? sampleExampleFor(v.name)]));
  return { ok: true, components, headerType, variableExamples };
}
