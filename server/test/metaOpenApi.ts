/**
 * Meta's OpenAPI file (../shared/reference/meta-whatsapp-openapi, beside the repository) for the
 * contract tests of the send request: its `TemplateMessage` schema, and the one known defect of
 * the file those tests set aside by name (the reference README).
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ErrorObject } from 'ajv';
import { parse } from 'yaml';
import type { TTemplateComponent } from '@shared/types';
import { templateSendRequest, type HeaderMedia, type TemplateShape } from '../src/sending/messageRequest';
import { templateMessageBody } from '../src/sending/providers/http';
import { PLATFORM_INVITE_TEMPLATE, platformInviteTemplate } from '../src/sending/platformSender';

export const META_OPENAPI = resolve(__dirname, '../../../shared/reference/meta-whatsapp-openapi/business-messaging-api_v23.0.yaml');

export const haveMetaOpenApi = existsSync(META_OPENAPI);

type Schema = Record<string, unknown>;
const REF = '#/components/schemas/';

/**
 * The file says which schema a component or parameter is by an OpenAPI `discriminator` mapping
 * (`type: header` is a HeaderComponent, `type: text` a TextParameter...) with no `oneOf` beside
 * it. JSON Schema validators ignore `discriminator`, so without this the body would be checked
 * against the base schemas only (a 40,000-character text parameter would pass). Each such schema
 * `X` becomes its original (`X__base`) plus "if the property is V then the mapped schema", and the
 * mapped schemas extend `X__base`, so nothing refers back to itself.
 */
function applyDiscriminators(schemas: Record<string, Schema>): Record<string, Schema> {
  const result: Record<string, Schema> = { ...schemas };
  const dispatched = Object.entries(schemas).filter(([, schema]) => {
    const discriminator = schema.discriminator as { mapping?: Record<string, string> } | undefined;
    return discriminator?.mapping && !schema.oneOf && !schema.anyOf;
  });
  // A schema mapped from X extends X's base, not X itself; its other references stay as they are.
  const rebase = (node: unknown, owner: string): unknown => {
    if (Array.isArray(node)) return node.map((item) => rebase(item, owner));
    if (!node || typeof node !== 'object') return node;
    const copy: Schema = {};
    for (const [key, value] of Object.entries(node as Schema)) copy[key] = key === '$ref' && value === `${REF}${owner}` ? `${value}__base` : rebase(value, owner);
    return copy;
  };
  for (const [name, schema] of dispatched) {
    const { discriminator, ...base } = schema as Schema & { discriminator: { propertyName: string; mapping: Record<string, string> } };
    result[`${name}__base`] = base;
    for (const target of Object.values(discriminator.mapping)) {
      const targetName = target.slice(REF.length);
      result[targetName] = rebase(schemas[targetName], name) as Schema;
    }
    const property = discriminator.propertyName;
    result[name] = {
      allOf: [
        { $ref: `${REF}${name}__base` },
        ...Object.entries(discriminator.mapping).map(([value, target]) => ({ if: { properties: { [property]: { const: value } }, required: [property] }, then: { $ref: target } })),
      ],
    };
  }
  return result;
}

/** One message schema of the file (`TextMessage`, `ImageMessage`...) with every schema it refers to. */
export function metaMessageSchema(name: string): Record<string, unknown> {
  const spec = parse(readFileSync(META_OPENAPI, 'utf8')) as { components: { schemas: Record<string, Schema> } & Record<string, unknown> };
  return { components: { ...spec.components, schemas: applyDiscriminators(spec.components.schemas) }, allOf: [{ $ref: `${REF}${name}` }] };
}

/** The file's `TemplateMessage` (POST /{Version}/{Phone-Number-ID}/messages) with every schema it refers to, discriminators applied. */
export function metaTemplateMessageSchema(): Record<string, unknown> {
  const spec = parse(readFileSync(META_OPENAPI, 'utf8')) as { components: { schemas: Record<string, Schema> } & Record<string, unknown> };
  const components = { ...spec.components, schemas: applyDiscriminators(spec.components.schemas) };
  return { components, allOf: [{ $ref: `${REF}TemplateMessage` }] };
}

/**
 * The file's known defect: the button `index` pattern `^[2-6, 11-14]$` is a character class that
 * refuses "0", the index of Meta's own examples. Only that pattern error, on a button index of one
 * or two digits written as a string, is this defect; anything else is a real refusal.
 */
export function isKnownIndexPatternDefect(error: ErrorObject, body: unknown): boolean {
  if (error.keyword !== 'pattern' || !/\/components\/\d+\/index$/.test(error.instancePath)) return false;
  const value = error.instancePath
    .split('/')
    .slice(1)
    .reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), body);
  return typeof value === 'string' && /^\d{1,2}$/.test(value);
}

/**
 * A validation's errors less the known defect: its pattern errors, and the `if`/`then` wrappers
 * (applyDiscriminators) that failed only because of them. A wrapper over a real error is dropped
 * too, but that error is itself reported (allErrors), so it still fails the check.
 */
export function errorsBesidesKnownDefects(errors: readonly ErrorObject[] | null | undefined, body: unknown): ErrorObject[] {
  const all = errors ?? [];
  const defects = all.filter((error) => isKnownIndexPatternDefect(error, body)).map((error) => error.instancePath);
  return all.filter((error) => {
    if (isKnownIndexPatternDefect(error, body)) return false;
    if (error.keyword === 'if' && defects.some((path) => path.startsWith(`${error.instancePath}/`))) return false;
    return true;
  });
}

/** Our reference for a send, as the dispatcher writes it (`biz_opaque_callback_data`). */
export const SEND_REFERENCE = 'sandesh:42:0123456789abcdef';

const template = (components: TTemplateComponent[], extra: Partial<TemplateShape> = {}): TemplateShape => ({ name: 'order_update', language: 'en_US', category: 'MARKETING', components, ...extra });
const media = (type: HeaderMedia['type'], filename?: string): HeaderMedia => ({ type, link: `https://sandesh.example.in/media/campaigns/9b1d.${type === 'document' ? 'pdf' : 'jpg'}`, ...(filename ? { filename } : {}) });

/** Every kind of template a campaign sends, with one recipient's values. */
export const SEND_KINDS: Record<string, { template: TemplateShape; values: Record<string, string>; headerMedia?: HeaderMedia }> = {
  'text only': { template: template([{ type: 'BODY', text: 'Your order has shipped.' }]), values: {} },
  'positional variables with a text header': {
    template: template([
      { type: 'HEADER', format: 'TEXT', text: 'Hello {{1}}' },
      { type: 'BODY', text: 'Hi {{1}}, order {{2}} ships today' },
    ]),
    values: { header_1: 'Asha', '1': 'Asha', '2': 'A-1001' },
  },
  'named variables with a text header': {
    template: template([
      { type: 'HEADER', format: 'TEXT', text: 'Hello {{first_name}}' },
      { type: 'BODY', text: 'Hi {{first_name}}, order {{order_id}} ships today' },
    ]),
    values: { header_first_name: 'Asha', first_name: 'Asha', order_id: 'A-1001' },
  },
  'image header': { template: template([{ type: 'HEADER', format: 'IMAGE' }, { type: 'BODY', text: 'New stock is in' }]), values: {}, headerMedia: media('image') },
  'video header': { template: template([{ type: 'HEADER', format: 'VIDEO' }, { type: 'BODY', text: 'Watch {{1}}' }]), values: { '1': 'the tour' }, headerMedia: media('video') },
  'document header': {
    template: template([{ type: 'HEADER', format: 'DOCUMENT' }, { type: 'BODY', text: 'Your invoice {{1}}' }], { category: 'UTILITY' }),
    values: { '1': 'INV-7' },
    headerMedia: media('document', 'Invoice INV-7.pdf'),
  },
  'URL button with a variable': {
    template: template([
      { type: 'BODY', text: 'Track order {{1}}' },
      { type: 'BUTTONS', buttons: [{ type: 'PHONE_NUMBER', text: 'Call us', phone_number: '+919876543210' }, { type: 'URL', text: 'Track', url: 'https://shop.example.in/track/{{1}}' }] },
    ]),
    values: { '1': 'A-1001', button_1_url: 'A-1001' },
  },
  'quick replies': {
    template: template([
      { type: 'BODY', text: 'Shall we deliver tomorrow?' },
      { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Yes' }, { type: 'QUICK_REPLY', text: 'No' }] },
    ]),
    values: {},
  },
  'copy-code authentication': {
    template: template(
      [
        { type: 'BODY', text: '{{1}} is your verification code.', add_security_recommendation: true },
        { type: 'BUTTONS', buttons: [{ type: 'OTP', otp_type: 'COPY_CODE', text: 'Copy Code' }] },
      ],
      { category: 'AUTHENTICATION' },
    ),
    values: { '1': '482913' },
  },
  // The platform's own team invitation, as ProviderPlatformMessenger sends it.
  'team invitation from the platform': {
    template: template(platformInviteTemplate(), { name: PLATFORM_INVITE_TEMPLATE, category: 'UTILITY' }),
    values: { '1': 'Asha Traders', '2': 'analyst', '3': 'https://sandesh.example.in/invite/6f2c0a9e4b7d1358' },
  },
};

/** One kind's body, built through the real builder and the adapter's body. */
export function sendBodyOf(kind: string): Record<string, unknown> {
  const { template: shape, values, headerMedia } = SEND_KINDS[kind]!;
  return templateMessageBody(templateSendRequest({ phoneNumberId: '1065', to: '919876543210', template: shape, values, headerMedia: headerMedia ?? null, callbackData: SEND_REFERENCE }));
}

