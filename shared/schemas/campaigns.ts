import { z } from 'zod';

/** Campaign control and the dashboard figures; list and answer shapes are in reports.ts. */

export const TIMELINE_MAX_DAYS = 366;

/** GET /api/campaigns/timeline?days=30: the last `days` days in India Standard Time, today included. */
export const ZTimelineQuery = z.object({
  days: z.coerce.number().int().min(1).max(TIMELINE_MAX_DAYS).default(30),
});
export type TTimelineQuery = z.infer<typeof ZTimelineQuery>;

/** POST /api/campaigns/{id}/resend-failed: without `confirm` the answer is only the cost preview. */
export const ZResendFailedRequest = z.object({
  confirm: z.boolean().optional().default(false),
});
export type TResendFailedRequest = z.infer<typeof ZResendFailedRequest>;
