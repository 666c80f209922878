import { z } from 'zod';
import { REPORT_STATUSES } from './reports';
import { ZApiSendBatchRequest, ZApiSendRequest } from './sending';

/**
 * The public API's answers as zod schemas, for GET /api/openapi.json and its tests.
 * The request schemas are the ones the routes validate with; these add names and examples.
 */

export const ZApiSendRequestDoc = ZApiSendRequest.meta({
  id: 'SendRequest',
  description: 'One template message. Template variables go as var1, var2, ... and URL button values as button_0_url, ...',
  examples: [
    { username: 'your_username', templatename: 'order_update', recipient_number: '919876543210', var1: 'Asha', var2: 'ORD-4521' },
    { username: 'your_username', templatename: 'order_update', recipient_number: '919876543210', var1: 'Asha', var2: 'ORD-4521', scheduled_at: '2026-12-01T10:30:00+05:30' },
  ],
});

export const ZApiSendBatchRequestDoc = ZApiSendBatchRequest.meta({
  id: 'SendBatchRequest',
  examples: [
    {
      username: 'your_username',
      templatename: 'order_update',
      messages: [
        { recipient_number: '919876543210', var1: 'Asha', var2: 'ORD-4521' },
        { recipient_number: '919812345678', var1: 'Ravi', var2: 'ORD-4522' },
      ],
    },
  ],
});

export const ZApiSendResponse = z
  .object({
    success: z.literal(true),
    message_id: z.string().regex(/^msg_\d+$/).describe('Our id of the message (msg_<id>): read its status with GET /api/messages/{messageId}'),
    message: z.string(),
    campaign_id: z.number().int(),
    status: z.string().describe('queued (scheduled when sent with scheduled_at), or duplicate / suppressed when it was not sent'),
    charged: z.boolean(),
    scheduled_at: z.iso.datetime().optional().describe('When a scheduled message goes out (it was charged now)'),
  })
  .meta({
    id: 'SendResponse',
    examples: [{ success: true, message_id: 'msg_48213907', message: 'Message sent successfully', campaign_id: 1289, status: 'queued', charged: true }],
  });

const ZSkippedRow = z.object({ row: z.number().int(), value: z.string(), reason: z.string(), message: z.string() });

export const ZApiSendBatchResponse = z
  .object({
    success: z.literal(true),
    message: z.string(),
    data: z.object({
      campaignId: z.number().int(),
      accepted: z.number().int(),
      duplicates: z.number().int().describe('Not sent, not charged: Duplicate Blocked (the same message sent recently) and repeats together'),
      repeats: z.number().int().optional().describe('Rows repeating an earlier row of this batch in number and every value: sent once, listed in skippedRows, not charged'),
      invalid: z.number().int(),
      suppressed: z.number().int(),
      totalCost: z.number().describe('Rupees'),
      skippedRows: z.array(ZSkippedRow).optional(),
      skippedCount: z.number().int().optional(),
      scheduledAt: z.iso.datetime().optional().describe('When the scheduled messages go out (they were charged now)'),
    }),
  })
  .meta({
    id: 'SendBatchResponse',
    examples: [
      {
        success: true,
        message: '2 messages accepted',
        data: { campaignId: 1290, accepted: 2, duplicates: 0, repeats: 0, invalid: 0, suppressed: 0, totalCost: 1.76, skippedRows: [], skippedCount: 0 },
      },
    ],
  });

export const ZApiError = z
  .object({
    success: z.literal(false).optional(),
    error: z.string(),
    code: z.string(),
    field: z.string().optional(),
    details: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
  })
  .meta({
    id: 'Error',
    examples: [{ success: false, error: 'Invalid username or API key', code: 'invalid_api_key' }],
  });

export const ZReportsResponse = z
  .object({
    success: z.literal(true),
    data: z.object({
      reports: z.array(
        z.object({
          id: z.number().int(),
          template_used: z.string(),
          recipient_number: z.string(),
          status: z.enum(REPORT_STATUSES),
          delivered_at: z.string().nullable(),
          read_at: z.string().nullable(),
          error_message: z.string().nullable(),
          sent_at: z.string().nullable(),
          created_at: z.string(),
          campaign_id: z.number().int(),
          campaign_name: z.string(),
        }),
      ),
      total: z.number().int(),
      page: z.number().int(),
      limit: z.number().int(),
      totalPages: z.number().int(),
    }),
  })
  .meta({
    id: 'ReportsPage',
    examples: [
      {
        success: true,
        data: {
          reports: [
            {
              id: 48213907,
              template_used: 'order_update',
              recipient_number: '919876543210',
              status: 'delivered',
              delivered_at: '2026-11-24T09:30:03.000Z',
              read_at: null,
              error_message: null,
              sent_at: '2026-11-24T09:30:01.000Z',
              created_at: '2026-11-24T09:30:00.000Z',
              campaign_id: 1289,
              campaign_name: 'API - order_update',
            },
          ],
          total: 1,
          page: 1,
          limit: 50,
          totalPages: 1,
        },
      },
    ],
  });

