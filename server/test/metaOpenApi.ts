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

export const META_OPENAPI = resolve(__dirname, '../../../shared/reference/meta-whatsapp-openapi/business-messaging-api_v23.0.yaml');

export const haveMetaOpenApi = existsSync(META_OPENAPI);

/** The file's `TemplateMessage` (POST /{Version}/{Phone-Number-ID}/messages) with every schema it refers to. */
export function metaTemplateMessageSchema(): Record<string, unknown> {
  const spec = parse(readFileSync(META_OPENAPI, 'utf8')) as { components: Record<string, unknown> };
  return { components: spec.components, allOf: [{ $ref: '#/components/schemas/TemplateMessage' }] };
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
};

/** One kind's body, built through the real builder and the adapter's body. */
export function sendBodyOf(kind: string): Record<string, unknown> {
  const { template: shape, values, headerMedia } = SEND_KINDS[kind]!;
  return templateMessageBody(templateSendRequest({ phoneNumberId: '1065', to: '919876543210', template: shape, values, headerMedia: headerMedia ?? null, callbackData: SEND_REFERENCE }));
}

