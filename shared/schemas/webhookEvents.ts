import { z } from 'zod';

/** GET /api/admin/webhook-events/unknown: newest first, a page at a time. */
export const UNKNOWN_WEBHOOK_EVENTS_PAGE_SIZE = 25;

export const ZUnknownWebhookEventsQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(UNKNOWN_WEBHOOK_EVENTS_PAGE_SIZE),
  /** Only changes of this field (exact). */
  field: z.string().trim().max(100).optional(),
});
export type TUnknownWebhookEventsQuery = z.infer<typeof ZUnknownWebhookEventsQuery>;

/** A signed webhook change the server stored without acting on it. */
export interface TUnknownWebhookEvent {
  id: number;
  field: string;
  wabaId: string | null;
  receivedAt: string;
  /** The change as received (JSON text, cut at 16,000 characters). */
  body: string;
}

export interface TUnknownWebhookEventsPage {
  success: true;
  events: TUnknownWebhookEvent[];
  total: number;
  page: number;
  totalPages: number;
}
