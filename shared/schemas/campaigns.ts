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

/** Who "Send again to…" reaches among a campaign's recipients. */
export const SEND_AGAIN_AUDIENCES = ['failed', 'replied', 'tapped', 'read_no_reply'] as const;
export type TSendAgainAudience = (typeof SEND_AGAIN_AUDIENCES)[number];

/**
 * POST /api/campaigns/{id}/send-again: `tapped` names the button by its text; `template_id` (not for
 * `failed`) sends a follow-up template instead of the campaign's own. Without `confirm`
 * the answer is only the cost preview, as for resend-failed.
 */
export const ZSendAgainRequest = z
  .object({
    audience: z.enum(SEND_AGAIN_AUDIENCES),
    button: z.string().trim().min(1).max(200).optional(),
    /** Another of the user's templates for the follow-up; the campaign's own when absent. */
    template_id: z.coerce.number().int().positive().optional(),
    confirm: z.boolean().optional().default(false),
  })
  .refine((body) => body.audience !== 'tapped' || body.button !== undefined, { message: 'Choose the button whose tappers get the message', path: ['button'] });
export type TSendAgainRequest = z.infer<typeof ZSendAgainRequest>;
