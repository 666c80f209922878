import { z } from 'zod';

/**
 * A number's health at Meta and the reconciliation of what we charged with what Meta billed
 * (docs/sending.md "Numbers' health", docs/reports.md "Meta's bill").
 */

/** A Cloud API number's health as Meta last reported it; every field null until first read. */
export interface TNumberHealth {
  /** GREEN, YELLOW, RED, UNKNOWN or NA. */
  quality_rating: string | null;
  /** TIER_50, TIER_250, TIER_1K, TIER_10K, TIER_100K, TIER_UNLIMITED. */
  messaging_limit_tier: string | null;
  /** Unique recipients the tier allows in 24 hours; null for unlimited or unknown. */
  messaging_limit: number | null;
  /** STANDARD (80 messages a second) or HIGH (1,000). */
  throughput_level: string | null;
  /** Display name status (APPROVED, PENDING_REVIEW, DECLINED, ...). */
  name_status: string | null;
  /** When it was last read from Meta (ISO), or null. */
  updated_at: string | null;
  /** Why the last read failed, or null. */
  error: string | null;
}

/** GET /api/admin/numbers/health: every Cloud API number with its owner. */
export interface TAdminNumberHealth {
  id: number;
  user_id: number;
  email: string;
  label: string;
  display_number: string;
  phone_number_id: string;
  messages_per_second: number;
  health: TNumberHealth;
}

const ZDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'must be a day (YYYY-MM-DD)' });

/** GET /api/reports/reconciliation and GET /api/admin/reconciliation. */
export const ZReconciliationQuery = z.object({
  from: ZDay,
  to: ZDay,
  userId: z.coerce.number().int().positive().optional(),
});
export type TReconciliationQuery = z.infer<typeof ZReconciliationQuery>;

export interface TReconciliationDay {
  user_id: number;
  email: string;
  /** Indian day, YYYY-MM-DD. */
  day: string;
  /** Messages we charged, by our category. */
  charged: Record<string, number>;
  /** Messages Meta billed, by Meta's category (upper case). */
  billed_by_meta: Record<string, number>;
  /** Charged messages Meta billed in a category other than ours. */
  differ: number;
  /** Messages Meta did not bill (`billable: false`). */
  free: number;
  /** Charged messages with no pricing from Meta yet. */
  awaiting_pricing: number;
}

export interface TReconciliationResponse {
  success: true;
  from: string;
  to: string;
  days: TReconciliationDay[];
}
