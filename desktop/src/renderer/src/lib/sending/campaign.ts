/**
 * A send once confirmed (spec 002 §4, §8 "Sending"): how a refusal is worded, the rows it set
 * aside, and the accepted campaign's progress that the send dialogs and Manage Reports follow.
 */
import { csvLine } from '@shared/csv';
import { NOTIFICATIONS } from '@shared/constants';
import { fillMessage, messages } from '@shared/messages';
import type { TCampaign, TCampaignCounts, TCampaignStatus, TSkippedRow } from '@shared/schemas/sending';
import type { FailedCall } from './setup';

const s = messages.sending;

/** Spec §8 "Sending": 'Sending failed' / 'Bulk sending failed' with the server message or the status. */
export function sendFailure(error: FailedCall, bulk: boolean): { title: string; description: string } {
  const title = bulk ? s.bulkSendingFailed : s.sendingFailed;
  if (error.serverMessage) return { title, description: error.serverMessage };
  if (error.status === 0) return { title, description: messages.common.networkErrorRetry };
  return { title, description: fillMessage(s.sendingFailedStatus, { code: error.status }) };
}

/** The skipped rows of a send as a CSV file (row, value, reason), with a BOM so Excel reads UTF-8. */
export function skippedRowsCsv(rows: readonly TSkippedRow[]): string {
  return `\uFEFF${csvLine(['Row', 'Value', 'Why'])}${rows.map((row) => csvLine([String(row.row), row.value, row.message])).join('')}`;
}

// ---------------------------------------------------------------------------------------------
// Campaign progress

/** `failed` is a scheduled send that never started (fully refunded): it is over too. */
const FINISHED: readonly TCampaignStatus[] = ['completed', 'cancelled', 'failed'];

export function isCampaignFinished(status: TCampaignStatus): boolean {
  return FINISHED.includes(status);
}

/** Delivery reports keep arriving after the last message went out; for this long they are followed. */
export const OUTCOME_FOLLOW_MS = NOTIFICATIONS.campaignFollowMs;

/** How far along each status is: a message only ever moves to a higher one. */
const STATUS_STEP: Record<keyof TCampaignCounts, number> = { queued: 0, sending: 1, unknown: 1, sent: 2, delivered: 3, read: 4, failed: 4, cancelled: 4, duplicate: 4, suppressed: 4 };

/**
 * Of two readings of one campaign (a poll answer and a stream event can cross on the way), the
 * later one: its messages stand further along in total, and a finished campaign never runs again.
 */
export function laterCampaignReading(current: TCampaign | undefined, incoming: TCampaign): TCampaign {
  if (!current || current.id !== incoming.id) return incoming;
  if (isCampaignFinished(current.status) && !isCampaignFinished(incoming.status)) return current;
  const along = (campaign: TCampaign) => (Object.keys(STATUS_STEP) as (keyof TCampaignCounts)[]).reduce((sum, status) => sum + STATUS_STEP[status] * (campaign.counts[status] ?? 0), 0);
  return along(incoming) >= along(current) || isCampaignFinished(incoming.status) !== isCampaignFinished(current.status) ? incoming : current;
}

/**
 * Whether the send dialog keeps asking for the campaign: while it runs, and for a while after it
 * completes as long as some messages are still only `sent` (their delivered/read/failed report is
 * on its way from WhatsApp).
 */
export function shouldFollowCampaign(campaign: Pick<TCampaign, 'status' | 'counts' | 'completedAt'>, now: number = Date.now()): boolean {
  if (!isCampaignFinished(campaign.status)) return true;
  if (campaign.counts.sent === 0 || !campaign.completedAt) return false;
  return now - new Date(campaign.completedAt).getTime() < OUTCOME_FOLLOW_MS;
}

export interface CampaignProgressView {
  percent: number;
  processed: number;
  total: number;
  finished: boolean;
  pending: number;
}

/** Share of billable messages that reached a final state; a campaign with none to send is whole. */
export function campaignProgress(campaign: Pick<TCampaign, 'status' | 'processed' | 'billable' | 'counts'>): CampaignProgressView {
  const total = Math.max(0, campaign.billable);
  const processed = Math.min(Math.max(0, campaign.processed), total);
  const finished = isCampaignFinished(campaign.status);
  const percent = total === 0 ? 100 : finished && campaign.status === 'completed' ? 100 : Math.floor((processed / total) * 100);
  // A cancelled campaign has nothing waiting: what it had not sent will not go out.
  const pending = campaign.status === 'cancelled' ? 0 : campaign.counts.queued + campaign.counts.sending + campaign.counts.unknown;
  return { percent, processed, total, finished, pending };
}

export const CAMPAIGN_STATUS_LABELS: Record<TCampaignStatus, string> = {
  scheduled: 'Scheduled',
  failed: 'Failed to start',
  running: 'Sending',
  paused: 'Paused',
  cancelled: 'Cancelled',
  completed: 'Completed',
};
