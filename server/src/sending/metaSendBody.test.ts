/**
 * Meta's contract for sending a template: every kind of body the Cloud API adapter sends to
 * `POST /{Version}/{Phone-Number-ID}/messages` is built through the real builder
 * (templateSendRequest, then the adapter's templateMessageBody) and validated with ajv against the
 * `TemplateMessage` schema of Meta's OpenAPI file (../shared/reference/meta-whatsapp-openapi).
 *
 * One known defect of the file is excepted, by name (the reference README lists it): the button
 * `index` pattern `^[2-6, 11-14]$` is a character class that refuses "0", the index of Meta's own
 * examples; only that pattern error, on a button index of one or two digits, is set aside. The
 * other one (`language.policy` required) needs no exception: the adapter sends the policy.
 */
import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import { errorsBesidesKnownDefects, haveMetaOpenApi, metaTemplateMessageSchema, SEND_KINDS, SEND_REFERENCE as REFERENCE, sendBodyOf as build } from '../../test/metaOpenApi';

describe.skipIf(!haveMetaOpenApi)("Meta's send template contract", () => {
  const validate = haveMetaOpenApi ? new Ajv({ strict: false, allErrors: true }).compile(metaTemplateMessageSchema()) : null;
  const errorsOf = (body: unknown) => (validate!(body) ? [] : errorsBesidesKnownDefects(validate!.errors, body));

  it.each(Object.keys(SEND_KINDS))("validates the %s body against Meta's TemplateMessage", (kind) => {
    const body = build(kind);
    expect(errorsOf(body), JSON.stringify(validate!.errors)).toEqual([]);
  });

  it('sends the language policy, string indexes, quick-reply payloads, the document name and our reference', () => {
    const quick = build('quick replies');
    expect(quick.biz_opaque_callback_data).toBe(REFERENCE);
    const template = quick.template as { language: unknown; components: unknown[] };
    expect(template.language).toEqual({ policy: 'deterministic', code: 'en_US' });
    expect(template.components).toEqual([
      { type: 'button', sub_type: 'quick_reply', index: '0', parameters: [{ type: 'payload', payload: REFERENCE }] },
      { type: 'button', sub_type: 'quick_reply', index: '1', parameters: [{ type: 'payload', payload: REFERENCE }] },
    ]);
    const authentication = (build('copy-code authentication').template as { components: unknown[] }).components;
    expect(authentication[1]).toEqual({ type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: '482913' }] });
    const url = (build('URL button with a variable').template as { components: unknown[] }).components;
    expect(url[1]).toEqual({ type: 'button', sub_type: 'url', index: '1', parameters: [{ type: 'text', text: 'A-1001' }] });
    const document = (build('document header').template as { components: { parameters: unknown[] }[] }).components[0]!.parameters[0];
    expect(document).toEqual({ type: 'document', document: { link: 'https://sandesh.example.in/media/campaigns/9b1d.pdf', filename: 'Invoice INV-7.pdf' } });
  });

  it('excepts only the index pattern defect: a numeric index is refused, and so is a body without the policy', () => {
    const body = build('quick replies') as { template: { language: Record<string, unknown>; components: Record<string, unknown>[] } };
    const numericIndex = structuredClone(body);
    numericIndex.template.components[0]!.index = 0;
    expect(errorsOf(numericIndex).map((error) => error.instancePath)).toContain('/template/components/0/index');
    const noPolicy = structuredClone(body);
    delete noPolicy.template.language.policy;
    expect(errorsOf(noPolicy).map((error) => error.params)).toContainEqual({ missingProperty: 'policy' });
    const wrongSubType = structuredClone(body);
    wrongSubType.template.components[0]!.sub_type = 'copy_code';
    expect(errorsOf(wrongSubType).length).toBeGreaterThan(0);
  });
});
