/**
 * The API Management console's logic (spec 002 "API Management", §4, §5): the request it sends
 * to the public send API, the cURL / JavaScript / Python samples built from the same form, and
 * the message preview with the entered values.
 */
import { z } from 'zod';
import { variableKeyLabel } from '@shared/templates';
import type { TTemplateParam } from '@shared/apiKeys';
import { PUBLIC_API } from '@shared/constants';
import { messages } from '@shared/messages';
import { formatIndianNumber } from '@shared/money';
import { ZApiSendRequest } from '@shared/schemas/sending';
import type { TTemplate } from '@shared/types';
import { templatePreview, type TemplatePreview } from './templatePreview';

export const SEND_PATH = '/api/send';
export const BATCH_PATH = '/api/send/batch';
/** Shown in samples until a key is entered. */
export const API_KEY_PLACEHOLDER = 'YOUR_API_KEY';

/** The test recipient: plus signs and spaces are dropped (spec 002 §5: enter it without the +). */
export function cleanRecipient(input: string): string {
  return input.replace(/[+\s]/g, '');
}

/**
 * The parameters to ask for: the server's list for the template when it answered, otherwise one
 * `varN` per variable of the template (in the order the server numbers them).
 */
export function consoleParams(template: Pick<TTemplate, 'variables' | 'variableExamples'> | undefined, serverParams: readonly TTemplateParam[] | undefined): TTemplateParam[] {
  if (serverParams) return [...serverParams];
  if (!template) return [];
  return variableFields(template.variables).map(({ variable, field }) => ({
    name: field,
    example: template.variableExamples[variable] ?? '',
    description: `Value for ${variableKeyLabel(variable)}`,
    required: true,
  }));
}

/**
 * The public API's field for each of a template's variable keys, numbered per component as the
 * server reads them: the header's `header_var1...`, the body's `var1...`, a URL button's own
 * `button_{index}_url` (the keys are `header_1`, the body's own names, `button_0_url`).
 */
export function variableFields(variables: readonly string[]): { variable: string; field: string }[] {
  let body = 0;
  let header = 0;
  return variables.map((variable) => ({
    variable,
    field: /^header_.+$/.test(variable) ? `header_var${++header}` : /^button_\d+_url$/.test(variable) ? variable : `var${++body}`,
  }));
}

/** A parameter's value: what was typed, or the template's example until the field is touched. */
export function paramValue(param: TTemplateParam, values: Readonly<Record<string, string | undefined>>): string {
  return values[param.name] ?? param.example;
}

/**
 * The console's own fields. Only the recipient is checked here, with the public API's own rule
 * for it: everything else is sent as typed, since showing the API's answer (an error included)
 * is what the console is for.
 */
export const ZApiConsoleForm = z.object({
  templateId: z.string(),
  recipient: z.string().transform((typed, context) => {
    const result = ZApiSendRequest.shape.recipient_number.safeParse(cleanRecipient(typed));
    if (result.success) return result.data;
    for (const issue of result.error.issues) context.addIssue({ code: 'custom', message: issue.message });
    return z.NEVER;
  }),
  /** A parameter's field holds nothing until it is typed in (its example is shown and sent until then). */
  values: z.record(z.string(), z.string().optional()),
});
export type TApiConsoleForm = z.input<typeof ZApiConsoleForm>;

export interface ConsoleForm {
  username: string;
  templatename: string;
  recipient: string;
  params: readonly TTemplateParam[];
  values: Readonly<Record<string, string | undefined>>;
  /** Sent only when the template's name exists in several languages. */
  language?: string | undefined;
}

/** The JSON body of `POST /api/send`, keys in the documented order; empty parameters are left out. */
export function buildSendPayload(form: ConsoleForm): Record<string, string> {
  const payload: Record<string, string> = {
    username: form.username,
    templatename: form.templatename,
    recipient_number: cleanRecipient(form.recipient),
  };
  for (const param of form.params) {
    const value = paramValue(param, form.values).trim();
    if (value) payload[param.name] = value;
  }
  if (form.language) payload.language = form.language;
  return payload;
}

export interface Snippets {
  curl: string;
  javascript: string;
  python: string;
}

/** Single quotes inside a single-quoted shell word. */
function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function indentAfterFirst(text: string, spaces: number): string {
  const pad = ' '.repeat(spaces);
  return text.split('\n').join(`\n${pad}`);
}

/**
 * Ready-to-run samples of the request the console would send. Every value is a string, so the
 * JSON object is also a valid JavaScript and Python literal.
 */
export function buildSnippets(baseUrl: string, apiKey: string, payload: Record<string, string>): Snippets {
  const url = `${baseUrl}${SEND_PATH}`;
  const key = apiKey.trim() || API_KEY_PLACEHOLDER;
  const json = JSON.stringify(payload, null, 2);
  const pythonJson = JSON.stringify(payload, null, 4);
  return {
    curl: [
      `curl -X POST ${shellQuote(url)} \\`,
      `  -H ${shellQuote(`Authorization: Bearer ${key}`)} \\`,
      `  -H 'Content-Type: application/json' \\`,
      `  --max-time ${PUBLIC_API.sampleTimeoutSeconds} \\`,
      `  -d ${shellQuote(indentAfterFirst(json, 2))}`,
    ].join('\n'),
    javascript: `const response = await fetch(${JSON.stringify(url)}, {
  method: 'POST',
  headers: {
    Authorization: ${JSON.stringify(`Bearer ${key}`)},
    'Content-Type': 'application/json',
  },
  body: JSON.stringify(${indentAfterFirst(json, 2)}),
  signal: AbortSignal.timeout(${PUBLIC_API.sampleTimeoutSeconds * 1000}),
});

const result = await response.json();
if (!response.ok) throw new Error(result.error);
console.log('Message id:', result.message_id);`,
    python: `import requests

response = requests.post(
    ${JSON.stringify(url)},
    headers={"Authorization": ${JSON.stringify(`Bearer ${key}`)}},
    json=${indentAfterFirst(pythonJson, 4)},
    timeout=${PUBLIC_API.sampleTimeoutSeconds},
)
result = response.json()
if response.status_code != 200:
    raise RuntimeError(result.get("error"))
print("Message id:", result["message_id"])`,
  };
}

/** Where the samples and the console send: the configured server on desktop, the page's origin on the web. */
export function publicApiBaseUrl(serverUrl: string, pageOrigin: string): string {
  return (serverUrl || pageOrigin).replace(/\/+$/, '');
}

export interface ConsoleResult {
  status: number;
  body: unknown;
}

/** Spec 002 §4: a request that got no answer shows as status 500 with 'Network Error'. */
export function networkErrorResult(): ConsoleResult {
  return { status: 500, body: { success: false, error: messages.publicApi.networkError } };
}

export function isSuccessStatus(status: number): boolean {
  return status === 200;
}

/** The response body as the console shows it: JSON pretty-printed, text as it came. */
export function formatResponseBody(body: unknown): string {
  if (typeof body === 'string') return body;
  return JSON.stringify(body, null, 2);
}

/** The URL parameter of button `index`, if the form has one. */
function buttonUrlParam(params: readonly TTemplateParam[], index: number): TTemplateParam | undefined {
  return params.find((param) => param.name === `button_${index}_url`);
}

/**
 * The chosen template as the recipient would see it with the entered values, each variable
 * filled from the field the server reads it from: `header_var1...` the header's, `var1...` the
 * body's; a button URL value fills its button's link. A value left empty keeps its {{token}}
 * visible.
 */
export function consolePreview(template: TTemplate, params: readonly TTemplateParam[], values: Readonly<Record<string, string | undefined>>): TemplatePreview {
  const byVariable: Record<string, string> = {};
  for (const { variable, field } of variableFields(template.variables)) {
    const param = params.find((candidate) => candidate.name === field);
    if (param) byVariable[variable] = paramValue(param, values);
  }
  const preview = templatePreview({ ...template, variableExamples: byVariable });
  const buttons = template.components.find((component) => component.type === 'BUTTONS')?.buttons ?? [];
  return {
    ...preview,
    buttons: preview.buttons.map((button, index) => {
      const param = buttonUrlParam(params, index);
      const source = buttons[index];
      const value = param ? paramValue(param, values).trim() : '';
      if (!param || !value || source?.type !== 'URL' || !source.url) return button;
      // The button's URL variable takes the value sent as button_{index}_url.
      return { ...button, target: source.url.replace(/\{\{\s*[A-Za-z0-9_]+\s*\}\}/g, value) };
    }),
  };
}

/**
 * The language to send: only when the user has the same template name in several languages,
 * since the send API otherwise finds the template by its name alone.
 */
export function languageToSend(templates: readonly Pick<TTemplate, 'name' | 'language'>[], chosen: Pick<TTemplate, 'name' | 'language'>): string | undefined {
  return templates.filter((template) => template.name === chosen.name).length > 1 ? chosen.language : undefined;
}

/** The spec's rate-limit wording (spec 002 "API Management": 100/15min per IP address). */
export const DEFAULT_RATE_LIMIT_LABEL = `${PUBLIC_API.rateLimitRequests}/${PUBLIC_API.rateLimitWindowMinutes}min`;

/** A key's limit as its row shows it: the platform default per IP, or its own per key. */
export function keyRateLimitLabel(rateLimitPer15Min: number | null): string {
  if (rateLimitPer15Min === null) return `${DEFAULT_RATE_LIMIT_LABEL} per IP address`;
  return `${formatIndianNumber(rateLimitPer15Min)}/${PUBLIC_API.rateLimitWindowMinutes}min for this key`;
}
