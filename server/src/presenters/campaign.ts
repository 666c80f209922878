import { unitsToRupees } from '@shared/money';
import type { TAccountOverview, TCampaignList } from '@shared/schemas/reports';
import { CAMPAIGN_PAUSE_REASONS, type TCampaign, type TCampaignPauseReason } from '@shared/schemas/sending';
import type { AccountOverview, CampaignPage, CampaignRecord } from '../sending/campaigns';

export function presentCampaign({ campaign: row, counts, replies = 0, sentBy }: CampaignRecord): TCampaign {
  // Replies over the messages that reached the contact (delivered or read), as a percentage.
  const reached = counts.delivered + counts.read;
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
    scheduledAt: row.scheduledAt ? new Date(row.scheduledAt).toISOString() : null,
    failureReason: row.failureReason ?? null,
    replies,
    reply_rate: reached > 0 ? Math.round((Math.min(replies, reached) / reached) * 1000) / 10 : 0,
    sentBy: sentBy ? { userId: sentBy.userId, name: sentBy.name } : null,
    pauseReason: row.status === 'paused' && (CAMPAIGN_PAUSE_REASONS as readonly string[]).includes(String(row.pauseReason)) ? (row.pauseReason as TCampaignPauseReason) : null,
  };
}

export function presentCampaignPage(page: CampaignPage): TCampaignList {
  return { campaigns: page.campaigns.map(presentCampaign), total: page.total, page: page.page, totalPages: page.totalPages };
}

export function presentAccountOverview(overview: AccountOverview): TAccountOverview {
  return {
    messagesThisMonth: overview.messagesThisMonth,
    deliveryRate: overview.deliveryRate,
    readRate: overview.readRate,
    spendThisMonth: unitsToRupees(overview.spendUnits, 4),
    refundsThisMonth: unitsToRupees(overview.refundUnits, 4),
    activeCampaigns: overview.activeCampaigns,
  };
}
