import type { TAdminNumberHealth, TNumberHealth, TReconciliationDay } from '@shared/schemas/numberHealth';
import type { WhatsappNumberRow } from '../db/rows/whatsappNumbers';
import type { NumberHealthRow } from '../sending/numberHealth';
import { TIER_RECIPIENTS } from '../sending/numberHealth';
import type { ReconciliationDay } from '../reports/reconciliation';

function iso(value: string | Date | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return value instanceof Date ? value.toISOString() : new Date(value).toISOString();
}

/** A Cloud API number's health as Meta last reported it. */
export function presentNumberHealth(row: Pick<WhatsappNumberRow, 'qualityRating' | 'messagingLimitTier' | 'throughputLevel' | 'nameStatus' | 'healthUpdatedAt' | 'healthError'>): TNumberHealth {
  const tier = row.messagingLimitTier ?? null;
  return {
    quality_rating: row.qualityRating ?? null,
    messaging_limit_tier: tier,
    messaging_limit: tier ? (TIER_RECIPIENTS[tier] ?? null) : null,
    throughput_level: row.throughputLevel ?? null,
    name_status: row.nameStatus ?? null,
    updated_at: iso(row.healthUpdatedAt),
    error: row.healthError ?? null,
  };
}

export function presentAdminNumberHealth(row: NumberHealthRow & { email: string }): TAdminNumberHealth {
  return {
    id: row.id,
    user_id: Number(row.userId),
    email: row.email,
    label: row.label,
    display_number: row.displayNumber,
    phone_number_id: row.phoneNumberId,
    messages_per_second: Number(row.messagesPerSecond),
    health: presentNumberHealth(row),
  };
}

export function presentReconciliationDay(day: ReconciliationDay): TReconciliationDay {
  return {
    user_id: day.userId,
    email: day.email,
    day: day.day,
    charged: day.charged,
    billed_by_meta: day.billedByMeta,
    differ: day.differ,
    free: day.free,
    awaiting_pricing: day.awaitingPricing,
  };
}
