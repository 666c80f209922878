import { z } from 'zod';
import { CONVERSATIONS, REPLY_EFFECTS, type TReplyEffect } from '../constants';
import { messages } from '../messages';

/** Replies: conversations with contacts, their messages, and service replies inside the 24-hour window. */

const optionalQuery = <T extends z.ZodType>(schema: T) => z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

export const ZConversationsQuery = z.object({
  number: optionalQuery(z.string().max(20).regex(/^[\d\s+()-]*$/)),
  campaign_id: optionalQuery(z.coerce.number().int().min(1).max(2_147_483_647)),
  unread: optionalQuery(z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1')),
  q: optionalQuery(z.string().max(100)),
  cursor: optionalQuery(z.string().max(200)),
});
export type TConversationsQuery = z.infer<typeof ZConversationsQuery>;

export const ZThreadQuery = z.object({ cursor: optionalQuery(z.string().max(200)) });

/** The contact's number in a path: digits with the country code. */
export const ZConversationPhone = z.string().regex(/^\d{8,15}$/);

export const ZSendReplyRequest = z
  .object({
    text: z.string().trim().max(CONVERSATIONS.textMaxChars, { error: messages.conversations.textTooLong }).optional(),
    media_upload_id: z.string().max(60).optional(),
    caption: z.string().trim().max(1024).optional(),
  })
  .refine((body) => Boolean(body.text) || Boolean(body.media_upload_id), { error: messages.conversations.textRequired, path: ['text'] })
  .meta({ id: 'SendReplyRequest', examples: [{ text: 'Yes, the blue one is in stock. Shall I reserve it?' }] });
export type TSendReplyRequest = z.input<typeof ZSendReplyRequest>;

export const CONVERSATION_MESSAGE_STATUSES = ['received', 'queued', 'accepted', 'sent', 'delivered', 'read', 'failed'] as const;

export { REPLY_EFFECTS, type TReplyEffect };

export const ZConversationMessage = z
  .object({
    id: z.string().describe('in_<n> for a message the contact sent, out_<n> for a reply'),
    direction: z.enum(['in', 'out']),
    kind: z.string().describe('text, image, video, audio, document, sticker, location, contacts, reaction, button, interactive, order, system, unsupported'),
    text: z.string().nullable().describe('The text, caption, tapped button or chosen item, or a summary of the message'),
    details: z.record(z.string(), z.unknown()).nullable().describe('Kind-specific facts as Meta sent them: location, shared contacts, order items, reaction, system change, errors'),
    button_text: z.string().nullable(),
    profile_name: z.string().nullable(),
    media: z
      .object({
        state: z.enum(['pending', 'stored', 'failed', 'refused']),
        mime_type: z.string().nullable(),
        filename: z.string().nullable(),
        size: z.number().int().nullable(),
        url: z.string().nullable().describe('GET it with the same credentials; only its owner may'),
      })
      .nullable(),
    status: z.enum(CONVERSATION_MESSAGE_STATUSES),
    error: z.object({ code: z.number().int().nullable(), title: z.string().nullable() }).nullable(),
    answers: z
      .object({ message_id: z.string(), campaign_id: z.number().int(), campaign_name: z.string().nullable(), template: z.string().nullable(), status: z.string().nullable() })
      .nullable()
      .describe('The campaign message this one answers'),
    reply_effect: z
      .enum(REPLY_EFFECTS)
      .nullable()
      .describe('What the opt-out rule made of an incoming message: opted_out (an opt-out keyword or button), opted_in (START, SUBSCRIBE), flagged (it looks like an opt-out but was not acted on: the user decides); null for none and for our replies'),
    cost: z.number().describe('What a reply cost in rupees'),
    at: z.iso.datetime(),
  })
  .meta({
    id: 'ConversationMessage',
    examples: [
      {
        id: 'in_5521',
        direction: 'in',
        kind: 'text',
        text: 'Yes, send me the price',
        details: null,
        button_text: null,
        profile_name: 'Asha',
        media: null,
        status: 'received',
        error: null,
        answers: { message_id: 'msg_48213907', campaign_id: 1289, campaign_name: 'Diwali offer', template: 'diwali_offer', status: 'read' },
        reply_effect: null,
        cost: 0,
        at: '2026-11-24T09:45:10.000Z',
      },
    ],
  });
export type TConversationMessage = z.infer<typeof ZConversationMessage>;

export const ZConversation = z
  .object({
    phone: z.string(),
    profile_name: z.string().nullable(),
    phone_number_id: z.string().describe('The business number the contact wrote to'),
    last_message: z.object({ kind: z.string().nullable(), text: z.string().nullable(), direction: z.enum(['in', 'out']).nullable(), at: z.iso.datetime() }),
    unread: z.number().int(),
    last_campaign_id: z.number().int().nullable(),
    service_window_open: z.boolean(),
    service_window_ends_at: z.iso.datetime().nullable(),
  })
  .meta({
    id: 'Conversation',
    examples: [
      {
        phone: '919876543210',
        profile_name: 'Asha',
        phone_number_id: '106540352242922',
        last_message: { kind: 'text', text: 'Yes, send me the price', direction: 'in', at: '2026-11-24T09:45:10.000Z' },
        unread: 1,
        last_campaign_id: 1289,
        service_window_open: true,
        service_window_ends_at: '2026-11-25T09:45:10.000Z',
      },
    ],
  });
export type TConversation = z.infer<typeof ZConversation>;

export const ZConversationsPage = z
  .object({ data: z.array(ZConversation), has_more: z.boolean(), next_cursor: z.string().nullable() })
  .meta({ id: 'ConversationsPage', examples: [{ data: ZConversation.meta()?.examples as TConversation[], has_more: false, next_cursor: null }] });
export type TConversationsPage = z.infer<typeof ZConversationsPage>;

export const ZSentReply = z.object({ data: ZConversationMessage }).meta({
  id: 'SentReply',
  examples: [{ data: { ...(ZConversationMessage.meta()?.examples as TConversationMessage[])[0]!, id: 'out_5522', direction: 'out', text: 'It is ₹1,499. Shall I reserve one?', answers: null, profile_name: null, status: 'accepted' } }],
});

export const ZConversationRead = z.object({ data: ZConversation }).meta({ id: 'ConversationRead', examples: [{ data: { ...(ZConversation.meta()?.examples as TConversation[])[0]!, unread: 0 } }] });

export const ZCampaignMessageInThread = z.object({
  message_id: z.string(),
  campaign_id: z.number().int(),
  campaign_name: z.string(),
  template: z.string(),
  status: z.string(),
  at: z.iso.datetime(),
});

export const ZConversationThread = z
  .object({
    conversation: ZConversation,
    data: z.array(ZConversationMessage),
    campaign_messages: z.array(ZCampaignMessageInThread).describe('Campaign messages sent to this number (first page only)'),
    has_more: z.boolean(),
    next_cursor: z.string().nullable(),
  })
  .meta({
    id: 'ConversationThread',
    examples: [
      {
        conversation: (ZConversation.meta()?.examples as TConversation[])[0],
        data: ZConversationMessage.meta()?.examples as TConversationMessage[],
        campaign_messages: [{ message_id: 'msg_48213907', campaign_id: 1289, campaign_name: 'Diwali offer', template: 'diwali_offer', status: 'read', at: '2026-11-24T09:30:01.000Z' }],
        has_more: false,
        next_cursor: null,
      },
    ],
  });
export type TConversationThread = z.infer<typeof ZConversationThread>;

export const ZReplyMediaUploaded = z.object({ media_upload_id: z.string(), mime_type: z.string(), size: z.number().int() }).meta({ id: 'ReplyMediaUploaded', examples: [{ media_upload_id: '0b9c2f5e-6a1d-4a4e-9a57-3f6f1d2c8e11.jpg', mime_type: 'image/jpeg', size: 48213 }] });
export type TReplyMediaUploaded = z.infer<typeof ZReplyMediaUploaded>;

/** "Send again to…" audiences of a campaign. */
export const SEND_AGAIN_AUDIENCES = ['failed', 'replied', 'tapped', 'read_no_reply'] as const;
export type TSendAgainAudience = (typeof SEND_AGAIN_AUDIENCES)[number];

export const ZSendAgainRequest = z.object({
  audience: z.enum(SEND_AGAIN_AUDIENCES),
  button: z.string().max(255).optional(),
  confirm: z.boolean().optional(),
});
export type TSendAgainRequest = z.infer<typeof ZSendAgainRequest>;

/** A campaign's replies: the count, the rate over messages that reached the contact, and taps per button. */
export interface TCampaignReplies {
  replies: number;
  reply_rate: number;
  button_taps: { text: string; taps: number; contacts: number }[];
}
