/**
 * Meta's contract for a service reply: the text and media bodies the adapters send
 * (`serviceMessageBody`) validated with ajv against `TextMessage`, `ImageMessage`,
 * `DocumentMessage`, `VideoMessage` and `AudioMessage` of Meta's OpenAPI file, and accepted by the
 * simulator's schema (sendSchemas.ts).
 *
 * One defect of the file is set aside by name: each of these schemas closes its second `allOf` part
 * with `additionalProperties: false`, which refuses the base properties every message must carry
 * (`messaging_product`, `recipient_type`, `to`) and our reference `biz_opaque_callback_data`, which
 * Meta echoes on the statuses of every message type. Only `additionalProperties` errors at the body's
 * root naming those properties are this defect.
 */
import Ajv, { type ErrorObject } from 'ajv';
import { describe, expect, it } from 'vitest';
import { haveMetaOpenApi, metaMessageSchema } from '../../test/metaOpenApi';
import { ZServiceMessage } from '../simulator/sendSchemas';
import { serviceMessageBody } from './providers/http';
import type { ServiceSendRequest } from './providers/types';

const BASE_PROPERTIES = new Set(['messaging_product', 'recipient_type', 'to', 'biz_opaque_callback_data', 'context']);
const isClosedAllOfDefect = (error: ErrorObject) => error.keyword === 'additionalProperties' && error.instancePath === '' && BASE_PROPERTIES.has(String((error.params as { additionalProperty?: unknown }).additionalProperty));

const KINDS: Record<string, { schema: string; content: ServiceSendRequest['content'] }> = {
  text: { schema: 'TextMessage', content: { type: 'text', body: 'It is ₹1,499. Shall I reserve one?' } },
  image: { schema: 'ImageMessage', content: { type: 'image', link: 'https://sandesh.example.in/media/replies/7/0b9c.jpg', caption: 'This one' } },
  document: { schema: 'DocumentMessage', content: { type: 'document', link: 'https://sandesh.example.in/media/replies/7/0b9c.pdf', caption: 'Invoice', filename: 'file.pdf' } },
  video: { schema: 'VideoMessage', content: { type: 'video', link: 'https://sandesh.example.in/media/replies/7/0b9c.mp4' } },
  audio: { schema: 'AudioMessage', content: { type: 'audio', link: 'https://sandesh.example.in/media/replies/7/0b9c.ogg', caption: 'dropped: Meta takes none on audio' } },
};

describe.skipIf(!haveMetaOpenApi)("Meta's service message contract", () => {
  it.each(Object.keys(KINDS))('validates the %s reply against Meta\'s schema and the simulator\'s', (kind) => {
    const { schema, content } = KINDS[kind]!;
    const body = serviceMessageBody({ phoneNumberId: '106540352242922', to: '919876543210', content, callbackData: 'sandesh-reply:42' });
    const validate = new Ajv({ strict: false, allErrors: true }).compile(metaMessageSchema(schema));
    const errors = validate(body) ? [] : (validate.errors ?? []).filter((error) => !isClosedAllOfDefect(error));
    expect(errors, JSON.stringify(validate.errors)).toEqual([]);
    expect(ZServiceMessage.safeParse(body).success).toBe(true);
    expect(body.biz_opaque_callback_data).toBe('sandesh-reply:42');
  });

  it('leaves the caption off audio and refuses a text body Meta refuses', () => {
    const audio = serviceMessageBody({ phoneNumberId: '1', to: '919876543210', content: KINDS.audio!.content });
    expect(audio.audio).toEqual({ link: 'https://sandesh.example.in/media/replies/7/0b9c.ogg' });
    expect(ZServiceMessage.safeParse({ messaging_product: 'whatsapp', recipient_type: 'individual', to: '91', type: 'text', text: { body: 'x'.repeat(4097) } }).success).toBe(false);
  });
});
