/**
 * The send request as Meta's OpenAPI file describes it (`TemplateMessage` of
 * `POST /{Version}/{Phone-Number-ID}/messages`, ../shared/reference/meta-whatsapp-openapi), as zod
 * schemas the simulator holds every send to: a body Meta's schema refuses is refused here too,
 * with Meta's answer (HTTP 400, code 100). sendSchemas.test.ts checks these against the file: every
 * kind of body the adapter builds passes both, and bodies the file refuses are refused by both.
 *
 * Where the file is wrong (the reference README's known defects) these follow Meta's documented
 * behaviour instead: a button `index` is a string of digits ("0" as in Meta's own examples, which
 * the file's pattern `^[2-6, 11-14]$` refuses). `language.policy` is required, as the file says.
 * Objects are loose as in the file (no `additionalProperties: false`), except where noted.
 */
import { z } from 'zod';

/** Meta's `MediaObject`: exactly one of `id` and `link` (the file's `oneOf`); a document may carry its `filename`. */
const ZMedia = z.looseObject({ id: z.string().optional(), link: z.string().optional(), filename: z.string().optional() }).refine((media) => (media.id === undefined) !== (media.link === undefined), {
  message: 'exactly one of id and link is required',
});

/** Meta's `ParameterObject`, by its `type` (TextParameter, CurrencyParameter, ...). */
export const ZParameter = z.discriminatedUnion('type', [
  // The file's `TextParameter.maxLength`; the limits by place (60 in a header...) are Meta's send reference, checked apart.
  z.looseObject({ type: z.literal('text'), text: z.string().max(32_768), parameter_name: z.string().optional() }),
  z.looseObject({
    type: z.literal('currency'),
    currency: z.looseObject({ fallback_value: z.string(), code: z.string(), amount_1000: z.number().int() }),
    parameter_name: z.string().optional(),
  }),
  z.looseObject({ type: z.literal('date_time'), date_time: z.looseObject({ fallback_value: z.string() }), parameter_name: z.string().optional() }),
  z.looseObject({ type: z.literal('image'), image: ZMedia }),
  z.looseObject({ type: z.literal('video'), video: ZMedia }),
  z.looseObject({ type: z.literal('document'), document: ZMedia }),
]);
export type TParameter = z.infer<typeof ZParameter>;

/** Meta's `ButtonParameterObject`: a quick reply's `payload` or a URL button's `text`. */
const ZButtonParameter = z.discriminatedUnion('type', [z.looseObject({ type: z.literal('payload'), payload: z.string() }), z.looseObject({ type: z.literal('text'), text: z.string() })]);

/** Meta's `TemplateComponent` by `type`: HeaderComponent, BodyComponent, ButtonComponent. */
export const ZComponent = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('header'), parameters: z.array(ZParameter).min(1).optional() }),
  z.looseObject({ type: z.literal('body'), parameters: z.array(ZParameter).optional() }),
  z.looseObject({
    type: z.literal('button'),
    sub_type: z.enum(['quick_reply', 'url', 'catalog']),
    // A string, as the file types it (a number is refused); digits, as Meta's examples write it.
    index: z.string().regex(/^\d{1,2}$/, { error: 'must be the button position as a string of digits, e.g. "0"' }),
    parameters: z.array(ZButtonParameter).min(1),
  }),
]);
export type TComponent = z.infer<typeof ZComponent>;

/** Meta's `TemplateMessage`: `BaseMessageProperties` and a `TemplateObject`. */
export const ZTemplateMessage = z.looseObject({
  // The file types it as a string; Meta answers only "whatsapp".
  messaging_product: z.literal('whatsapp'),
  recipient_type: z.enum(['individual', 'group']),
  to: z.string().min(1),
  type: z.literal('template'),
  template: z.looseObject({
    name: z.string().min(1),
    language: z.looseObject({ policy: z.literal('deterministic'), code: z.string().min(1) }),
    components: z.array(ZComponent).optional(),
  }),
  // Meta's send reference: at most 512 characters, echoed on every status.
  biz_opaque_callback_data: z.string().max(512).optional(),
});
export type TTemplateMessage = z.infer<typeof ZTemplateMessage>;

/** What is wrong with a body, in `error_data.details`: each issue as `path: what`, as Meta names the field. */
export function sendBodyDetails(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : 'body'}: ${issue.message}`).join('; ');
}

/**
 * Meta's free-form messages of the customer service window (`TextMessage`, `ImageMessage`,
 * `VideoMessage`, `AudioMessage`, `DocumentMessage`): the text's body of at most 4,096 characters,
 * or a media object by id or link with a caption (not on audio) and a document's file name.
 */
const ZServiceBase = {
  messaging_product: z.literal('whatsapp'),
  recipient_type: z.enum(['individual', 'group']),
  to: z.string().min(1),
  biz_opaque_callback_data: z.string().max(512).optional(),
  context: z.looseObject({ message_id: z.string() }).optional(),
};
const ZCaptioned = z.looseObject({ id: z.string().optional(), link: z.string().optional(), caption: z.string().max(1024).optional() }).refine((media) => (media.id === undefined) !== (media.link === undefined), {
  message: 'exactly one of id and link is required',
});
export const ZServiceMessage = z.discriminatedUnion('type', [
  z.looseObject({ ...ZServiceBase, type: z.literal('text'), text: z.looseObject({ body: z.string().min(1).max(4096), preview_url: z.boolean().optional() }) }),
  z.looseObject({ ...ZServiceBase, type: z.literal('image'), image: ZCaptioned }),
  z.looseObject({ ...ZServiceBase, type: z.literal('video'), video: ZCaptioned }),
  z.looseObject({ ...ZServiceBase, type: z.literal('audio'), audio: ZMedia }),
  z.looseObject({ ...ZServiceBase, type: z.literal('document'), document: ZCaptioned }),
]);
export type TServiceMessage = z.infer<typeof ZServiceMessage>;
