/**
 * Meta's contract for creating a template: every kind of body the server sends to
 * `message_templates` is validated against the request schema of Meta's OpenAPI file
 * (../shared/reference/meta-whatsapp-openapi), and where the file carries Meta's own example of a
 * kind, our builder given the same template gives back Meta's components exactly.
 *
 * The file's known defects (the reference README) concern the send request (the URL button's
 * `index` pattern, `language.policy`) and the webhooks; none touches this request, so nothing is
 * excepted here.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Ajv from 'ajv';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { TTemplateComponent } from '@shared/types';
import { buildMetaTemplateBody, type TemplateForMeta } from './metaTemplateBody';

/** Beside the repository: ../shared/reference (the repository root is three folders up). */
const META_OPENAPI = resolve(__dirname, '../../../../shared/reference/meta-whatsapp-openapi/business-messaging-api_v23.0.yaml');
const HANDLE = '4::aW1hZ2UvcG5n:ARsample-handle';

type Operation = { requestBody: { content: Record<string, { schema: Record<string, unknown>; examples: Record<string, { value: Record<string, unknown> }> }> } };

function createOperation(): Operation['requestBody']['content'][string] {
  const spec = parse(readFileSync(META_OPENAPI, 'utf8')) as { paths: Record<string, Record<string, Operation>> };
  const content = spec.paths['/{Version}/{WABA-ID}/message_templates']?.post?.requestBody.content['application/json'];
  if (!content) throw new Error("Meta's file has no request body for POST message_templates");
  return content;
}

const template = (components: TTemplateComponent[], extra: Partial<TemplateForMeta> = {}): TemplateForMeta => ({
  name: 'order_update',
  language: 'en_US',
  category: 'MARKETING',
  components,
  variableExamples: {},
  ...extra,
});

/** Every kind of template the builder makes, as stored (the builder's components and examples). */
const KINDS: Record<string, { template: TemplateForMeta; headerHandle?: string }> = {
  'text only': { template: template([{ type: 'BODY', text: 'Your order has shipped.' }]) },
  'positional variables with a text header': {
    template: template(
      [
        { type: 'HEADER', format: 'TEXT', text: 'Hello {{1}}' },
        { type: 'BODY', text: 'Hi {{1}}, order {{2}} ships today' },
      ],
      { variableExamples: { header_1: 'Asha', '1': 'Asha', '2': 'A-1001' } },
    ),
  },
  'named variables with a text header': {
    template: template(
      [
        { type: 'HEADER', format: 'TEXT', text: 'Hello {{first_name}}' },
        { type: 'BODY', text: 'Hi {{first_name}}, order {{order_id}} ships today' },
      ],
      { variableExamples: { header_first_name: 'Asha', first_name: 'Asha', order_id: 'A-1001' } },
    ),
  },
  'image header': { template: template([{ type: 'HEADER', format: 'IMAGE' }, { type: 'BODY', text: 'New stock is in' }]), headerHandle: HANDLE },
  'video header': { template: template([{ type: 'HEADER', format: 'VIDEO' }, { type: 'BODY', text: 'Watch {{1}}' }], { variableExamples: { '1': 'the tour' } }), headerHandle: HANDLE },
  'document header': { template: template([{ type: 'HEADER', format: 'DOCUMENT' }, { type: 'BODY', text: 'Your invoice' }], { category: 'UTILITY' }), headerHandle: HANDLE },
  'URL button with a variable': {
    template: template(
      [
        { type: 'BODY', text: 'Track order {{1}}' },
        { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Track', url: 'https://shop.example.in/track/{{1}}' }] },
      ],
      { variableExamples: { '1': 'A-1001', button_0_url: 'A-1001' } },
    ),
  },
  'quick replies and a phone button': {
    template: template([
      { type: 'BODY', text: 'Shall we deliver tomorrow?' },
      { type: 'FOOTER', text: 'Reply below' },
      { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Yes' }, { type: 'QUICK_REPLY', text: 'No' }, { type: 'PHONE_NUMBER', text: 'Call us', phone_number: '+919876543210' }] },
    ]),
  },
  'copy-code authentication': {
    template: template(
      [
        { type: 'BODY', text: '{{1}} is your verification code. For your security, do not share this code.', add_security_recommendation: true },
        { type: 'FOOTER', text: 'This code expires in 10 minutes.', code_expiration_minutes: 10 },
        { type: 'BUTTONS', buttons: [{ type: 'OTP', otp_type: 'COPY_CODE', text: 'Copy Code' }] },
      ],
      { category: 'AUTHENTICATION', variableExamples: { '1': '123456' } },
    ),
  },
};

describe.skipIf(!existsSync(META_OPENAPI))("Meta's create template contract", () => {
  const content = existsSync(META_OPENAPI) ? createOperation() : null;

  it.each(Object.entries(KINDS))("validates the %s body against Meta's request schema", (_kind, { template: stored, headerHandle }) => {
    const validate = new Ajv({ strict: false, allErrors: true }).compile(content!.schema);
    const body = buildMetaTemplateBody(stored, { headerHandle: headerHandle ?? null });
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
  });

  it("gives back Meta's own examples from the same templates", () => {
    const examples = content!.examples;
    const components = (name: string) => examples[name]!.value.components;
    const authentication = buildMetaTemplateBody(
      template(
        [
          { type: 'BODY', text: '{{1}} is your verification code.', add_security_recommendation: true },
          { type: 'FOOTER', text: 'This code expires in 10 minutes.', code_expiration_minutes: 10 },
          { type: 'BUTTONS', buttons: [{ type: 'OTP', otp_type: 'COPY_CODE', text: 'Copy Code' }] },
        ],
        { category: 'AUTHENTICATION', name: 'authentication_code_copy_code_button' },
      ),
    );
    expect(authentication).toEqual(examples['Create authentication template w/ OTP copy code button']!.value);

    const quickReplies = buildMetaTemplateBody(
      template(
        [
          { type: 'HEADER', format: 'TEXT', text: 'Our {{1}} is on!' },
          { type: 'BODY', text: 'Shop now through {{1}} and use code {{2}} to get {{3}} off of all merchandise.' },
          { type: 'FOOTER', text: 'Use the buttons below to manage your marketing subscriptions' },
          { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Unsubcribe from Promos' }, { type: 'QUICK_REPLY', text: 'Unsubscribe from All' }] },
        ],
        { variableExamples: { header_1: 'Summer Sale', '1': 'the end of August', '2': '25OFF', '3': '25%' } },
      ),
    );
    expect(quickReplies.components).toEqual(components('Create template w/ text header, text body, text footer, and 2 quick reply buttons'));

    const metaDocument = components('Create template w/ document header, text body, a phone number button, and a URL button') as { example?: { header_handle?: string[] } }[];
    const document = buildMetaTemplateBody(
      template(
        [
          { type: 'HEADER', format: 'DOCUMENT' },
          {
            type: 'BODY',
            text: 'Thank you for your order, {{1}}! Your order number is {{2}}. Tap the PDF linked above to view your receipt. If you have any questions, please use the buttons below to contact support. Thanks again!',
          },
          { type: 'BUTTONS', buttons: [{ type: 'PHONE_NUMBER', text: 'Call', phone_number: '16467043595' }, { type: 'URL', text: 'Contact Support', url: 'https://www.examplesite.com/support' }] },
        ],
        { category: 'UTILITY', variableExamples: { '1': 'Mark', '2': '860198-230332' } },
      ),
      { headerHandle: metaDocument[0]!.example!.header_handle![0]! },
    );
    expect(document.components).toEqual(metaDocument);
  });

  it('writes named variables as named parameters and a URL variable as {{1}} with a full example link', () => {
    const named = buildMetaTemplateBody(KINDS['named variables with a text header']!.template);
    expect(named.parameter_format).toBe('named');
    expect(named.components).toEqual([
      { type: 'HEADER', format: 'TEXT', text: 'Hello {{first_name}}', example: { header_text_named_params: [{ param_name: 'first_name', example: 'Asha' }] } },
      {
        type: 'BODY',
        text: 'Hi {{first_name}}, order {{order_id}} ships today',
        example: { body_text_named_params: [{ param_name: 'first_name', example: 'Asha' }, { param_name: 'order_id', example: 'A-1001' }] },
      },
    ]);
    const url = buildMetaTemplateBody(KINDS['URL button with a variable']!.template);
    expect(url.parameter_format).toBe('positional');
    expect(url.components[1]).toEqual({ type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Track', url: 'https://shop.example.in/track/{{1}}', example: ['https://shop.example.in/track/A-1001'] }] });
    const image = buildMetaTemplateBody(KINDS['image header']!.template, { headerHandle: HANDLE });
    expect(image.components[0]).toEqual({ type: 'HEADER', format: 'IMAGE', example: { header_handle: [HANDLE] } });
  });
});
