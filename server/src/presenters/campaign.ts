import { unitsToRupees } from '@shared/money';
import type { TCampaign, TCampaignCounts } from '@shared/schemas/sending';
import type { StoredCampaign } from '../db/rows/campaigns';

export function emptyCounts(): TCampaignCounts {
  return { queued: 0, sending: 0, unknown: 0, sent: 0, delivered: 0, read: 0, failed: 0, cancelled: 0, duplicate: 0, suppressed: 0 };
}

export function presentCampaign(row: StoredCampaign, counts: TCampaignCounts): TCampaign {
  return {
    id: Number(row.id),
    name: String(row.name),
    status: row.status as TCampaign['status'],
    source: row.source as TCampaign['source'],
    templateName: String(row.templateName),
    language: String(row.templateLanguage),
    category: String(row.category),
    totalRecipients: Number(row.totalRecipients),
    billable: Number(row.billableCount),
    invalid: Number(row.invalidCount),
    counts,
    cancelled: counts.cancelled,
    resentCampaignId: row.resentCampaignId === null || row.resentCampaignId === undefined ? null : Number(row.resentCampaignId),
    // Sent counts as final for progress: the provider took the message. A cancelled one is final too.
    processed: counts.sent + counts.delivered + counts.read + counts.failed + counts.cancelled,
    pricePerMessage: unitsToRupees(Number(row.priceUnits), 4),
    totalCost: unitsToRupees(Number(row.totalCostUnits), 4),
    refunded: unitsToRupees(Number(row.refundedUnits ?? 0), 4),
    createdAt: new Date(row.createdAt).toISOString(),
    completedAt: row.completedAt ? new Date(row.completedAt).toISOString() : null,
  };
}
