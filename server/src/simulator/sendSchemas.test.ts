/**
 * The simulator's send schemas (sendSchemas.ts) against Meta's OpenAPI file: every kind of body the
 * adapter builds passes both Meta's `TemplateMessage` (ajv) and the simulator's schema, and bodies
 * Meta's schema refuses are refused by the simulator's too. The one place the two differ is the
 * file's known defect (the reference README), excepted by name: the button index pattern refusing
 * "0". Then the simulator over HTTP: an invalid body is answered exactly as Meta answers one, and a
 * value over WhatsApp's limits with Meta's 132000-family code.
 */
import Ajv from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TTemplateComponent } from '@shared/types';
import { errorsBesidesKnownDefects, haveMetaOpenApi, isKnownIndexPatternDefect, metaTemplateMessageSchema, SEND_KINDS, sendBodyOf } from '../../test/metaOpenApi';
import { startSimulatorServer, type SimulatorServer } from './cloudApiSimulator';
import { SimulatorOutbox } from './outbox';
import { ZTemplateMessage } from './sendSchemas';

type Body = { recipient_type?: string; template: { name?: string; language: Record<string, unknown>; components: Record<string, unknown>[] } } & Record<string, unknown>;

/** Bodies Meta's schema refuses, each made from a valid one by one change. */
const INVALID: Record<string, (body: Body) => void> = {
  'a numeric button index': (body) => {
    body.template.components[0]!.index = 0;
  },
  'no language policy': (body) => {
    delete body.template.language.policy;
  },
  'another language policy': (body) => {
    body.template.language.policy = 'fallback';
  },
  'no recipient type': (body) => {
    delete body.recipient_type;
  },
  'no template name': (body) => {
    delete body.template.name;
  },
  'a copy_code sub_type': (body) => {
    body.template.components[0]!.sub_type = 'copy_code';
  },
  'a button without parameters': (body) => {
    body.template.components[0]!.parameters = [];
  },
  'a button without a sub_type': (body) => {
    delete body.template.components[0]!.sub_type;
  },
  'a payload parameter in a header': (body) => {
    body.template.components.push({ type: 'header', parameters: [{ type: 'payload', payload: 'x' }] });
  },
  'a header with no parameters': (body) => {
    body.template.components.push({ type: 'header', parameters: [] });
  },
  'a text parameter without its text': (body) => {
    body.template.components.push({ type: 'body', parameters: [{ type: 'text' }] });
  },
  'a text parameter over 32,768 characters': (body) => {
    body.template.components.push({ type: 'body', parameters: [{ type: 'text', text: 'x'.repeat(32_769) }] });
  },
  'an image with both id and link': (body) => {
    body.template.components.push({ type: 'header', parameters: [{ type: 'image', image: { id: '1', link: 'https://x.example/a.jpg' } }] });
  },
  'an image with neither id nor link': (body) => {
    body.template.components.push({ type: 'header', parameters: [{ type: 'image', image: {} }] });
  },
  'a component of an unknown type': (body) => {
    body.template.components.push({ type: 'footer', parameters: [] });
  },
};

describe.skipIf(!haveMetaOpenApi)("the simulator's send schema against Meta's file", () => {
  const validate = haveMetaOpenApi ? new Ajv({ strict: false, allErrors: true }).compile(metaTemplateMessageSchema()) : null;
  const metaErrors = (body: unknown) => (validate!(body) ? [] : errorsBesidesKnownDefects(validate!.errors, body));

  it.each(Object.keys(SEND_KINDS))('takes the %s body, as Meta does', (kind) => {
    const body = sendBodyOf(kind);
    expect(metaErrors(body)).toEqual([]);
    const parsed = ZTemplateMessage.safeParse(body);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
  });

  it.each(Object.keys(INVALID))('refuses %s, as Meta does', (name) => {
    const body = structuredClone(sendBodyOf('quick replies')) as Body;
    INVALID[name]!(body);
    expect(metaErrors(body).length, `Meta's schema takes a body with ${name}`).toBeGreaterThan(0);
    expect(ZTemplateMessage.safeParse(body).success).toBe(false);
  });

  it('differs from the file only on its known defect: index "0" is what Meta sends, and its pattern refuses it', () => {
    const body = sendBodyOf('quick replies');
    expect(validate!(body)).toBe(false);
    expect(validate!.errors?.length).toBeGreaterThan(0);
    expect(errorsBesidesKnownDefects(validate!.errors, body)).toEqual([]);
    expect(validate!.errors?.some((error) => isKnownIndexPatternDefect(error, body))).toBe(true);
    expect(ZTemplateMessage.safeParse(body).success).toBe(true);
  });
});

describe("the simulator answers a send Meta refuses as Meta does", () => {
  const SENDER = '106540352242922';
  const TEMPLATES: Record<string, TTemplateComponent[]> = {
    order_update: [
      { type: 'HEADER', format: 'TEXT', text: 'Order {{1}}' },
      { type: 'BODY', text: 'Hi {{1}}, order {{2}} ships today' },
      { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Track', url: 'https://shop.example.in/t/{{1}}' }] },
    ],
    notice: [{ type: 'BODY', text: 'Notice: {{1}}' }],
  };
  let sim: SimulatorServer;
  beforeAll(async () => {
    sim = await startSimulatorServer({ outbox: new SimulatorOutbox(), resolveTemplate: (_sender, name) => TEMPLATES[name] ?? null, webhook: null });
  });
  afterAll(async () => {
    await sim?.close();
  });

  const post = async (body: unknown) => {
    const response = await fetch(`${sim.url}/v23.0/${SENDER}/messages`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer token' }, body: JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as { error?: { message: string; type: string; code: number; error_data: { messaging_product: string; details: string }; fbtrace_id: string }; messages?: unknown[] } };
  };
  const send = (name: string, components: unknown[]) => ({
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to: '919876543210',
    type: 'template',
    template: { name, language: { policy: 'deterministic', code: 'en_US' }, components },
  });
  const text = (value: string) => ({ type: 'text', text: value });
  const order = (header: string, first: string, second: string, link: string) =>
    send('order_update', [
      { type: 'header', parameters: [text(header)] },
      { type: 'body', parameters: [text(first), text(second)] },
      { type: 'button', sub_type: 'url', index: '0', parameters: [text(link)] },
    ]);

  it('answers a body outside the schema with HTTP 400, code 100, OAuthException, "(#100) Invalid parameter", the details and a trace id', async () => {
    const body = order('A-1', 'Asha', 'A-1', 'A-1') as unknown as Body;
    (body.template.components[2] as Record<string, unknown>).index = 0;
    delete body.template.language.policy;
    const answer = await post(body);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ message: '(#100) Invalid parameter', type: 'OAuthException', code: 100, error_data: { messaging_product: 'whatsapp' } });
    expect(answer.body.error?.error_data.details).toContain('template.language.policy');
    expect(answer.body.error?.error_data.details).toContain('template.components.2.index');
    expect(answer.body.error?.fbtrace_id).toMatch(/^\S{8,}$/);
    expect(answer.body.messages).toBeUndefined();
  });

  it('takes values at the limits and refuses one over them with 132005, and a line break or a run of spaces with 132018', async () => {
    const prefix = 'https://shop.example.in/t/'.length;
    expect((await post(order('H'.repeat(60), 'Asha', 'B'.repeat(1024), 'u'.repeat(2000 - prefix)))).status).toBe(200);
    expect((await post(send('notice', [{ type: 'body', parameters: [text('z'.repeat(32_768))] }]))).status).toBe(200);

    for (const body of [order('H'.repeat(61), 'Asha', 'A-1', 'A-1'), order('A-1', 'Asha', 'B'.repeat(1025), 'A-1'), order('A-1', 'Asha', 'A-1', 'u'.repeat(2001 - prefix))]) {
      const answer = await post(body);
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatchObject({ code: 132005, type: 'OAuthException', message: '(#132005) Template Hydrated Text Too Long' });
    }
    for (const value of ['Asha\nRao', 'Asha\tRao', 'Asha     Rao']) {
      const answer = await post(order('A-1', value, 'A-1', 'A-1'));
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatchObject({ code: 132018, error_data: { details: 'body parameter 1: Param text cannot have new-line/tab characters or more than 4 consecutive spaces' } });
    }
  });
});
