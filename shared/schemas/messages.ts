import { z } from 'zod';

/**
 * Status by API key: one message as an integrator sees it, and the cursor-paged list.
 * The same object is a message webhook event's `data`.
 */

/** The statuses a message shows to an integrator (one a line, so branches that add one merge cleanly). */
export const MESSAGE_API_STATUSES = [
  'scheduled',
  'queued',
  'sending',
  'sent',
  'delivered',
  'read',
  'failed',
  'duplicate',
  'opted_out',
  'cancelled',
  // A send whose outcome is not known yet (the provider took it, no status came back).
  'unknown',
] as const;
export type TMessageApiStatus = (typeof MESSAGE_API_STATUSES)[number];

/** Our id of a message as the send API answers it: `msg_<id>`. */
export const MESSAGE_ID_PATTERN = /^msg_([1-9]\d{0,17})$/;

export const MESSAGES_PAGE_SIZE = 100;

/** The documentation's example message (the status call's answer and a message event's `data`). */
export const EXAMPLE_MESSAGE = {
  message_id: 'msg_48213907',
  status: 'delivered',
  recipient: '919876543210',
  template: 'order_update',
  campaign_id: 1289,
  cost: 0.88,
  sent_at: '2026-11-24T09:30:01.000Z',
  delivered_at: '2026-11-24T09:30:03.000Z',
  updated_at: '2026-11-24T09:30:03.000Z',
} as const;

export const ZPublicMessage = z
  .object({
    message_id: z.string().regex(MESSAGE_ID_PATTERN).describe('Our id of the message, as POST /api/send answers it'),
    status: z.enum(MESSAGE_API_STATUSES),
    recipient: z.string().describe('The number with its country code, digits only'),
    template: z.string().describe('The template name'),
    campaign_id: z.number().int(),
    cost: z.number().describe('What the message cost in rupees (0 when it was not charged or was refunded)'),
    error_code: z.number().int().optional().describe('The provider error code of a failed message'),
    error_title: z.string().optional().describe('Why the message failed or was not sent'),
    error: z
      .object({
        code: z.number().int(),
        subcode: z.number().int().nullable(),
        title: z.string().nullable(),
        details: z.string().nullable(),
        is_transient: z.boolean().nullable(),
        fbtrace_id: z.string().nullable(),
      })
      .optional()
      .describe("A failed message's error as Meta reported it (code, subcode, title, error_data.details, is_transient, fbtrace_id for Meta's support)"),
    scheduled_at: z.iso.datetime().optional(),
    sent_at: z.iso.datetime().optional(),
    delivered_at: z.iso.datetime().optional(),
    read_at: z.iso.datetime().optional(),
    updated_at: z.iso.datetime(),
  })
  .meta({
    id: 'Message',
    examples: [EXAMPLE_MESSAGE],
  });
export type TPublicMessage = z.infer<typeof ZPublicMessage>;

const optionalQuery = <T extends z.ZodType>(schema: T) => z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

export const ZMessagesQuery = z.object({
  campaign_id: optionalQuery(z.coerce.number().int().min(1).max(2_147_483_647)),
  status: optionalQuery(z.enum(MESSAGE_API_STATUSES)),
  cursor: optionalQuery(z.string().max(200)),
});
export type TMessagesQuery = z.infer<typeof ZMessagesQuery>;

export const ZMessagesPage = z
  .object({
    data: z.array(ZPublicMessage),
    has_more: z.boolean(),
    next_cursor: z.string().nullable().describe('Pass as cursor for the next page; null on the last page'),
  })
  .meta({
    id: 'MessagesPage',
    examples: [
      {
        data: [
          {
            message_id: 'msg_48213907',
            status: 'failed',
            recipient: '919876543210',
            template: 'order_update',
            campaign_id: 1289,
            cost: 0,
            error_code: 131026,
            error_title: 'Message undeliverable',
            updated_at: '2026-11-24T09:30:03.000Z',
          },
        ],
        has_more: true,
        next_cursor: 'MjAyNi0xMS0yNFQwOTozMDowMC4wMDBafDQ4MjEzOTA3',
      },
    ],
  });
export type TMessagesPage = z.infer<typeof ZMessagesPage>;
