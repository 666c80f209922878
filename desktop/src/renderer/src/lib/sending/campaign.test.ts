import { describe, expect, it } from 'vitest';
import { messages } from '@shared/messages';
import type { TCampaign } from '@shared/schemas/sending';
import { CAMPAIGN_STATUS_LABELS, campaignProgress, isCampaignFinished, laterCampaignReading, OUTCOME_FOLLOW_MS, sendFailure, shouldFollowCampaign, skippedRowsCsv } from './campaign';

const s = messages.sending;

function campaign(overrides: Partial<TCampaign> = {}): TCampaign {
  return {
    id: 7,
    name: 'Quick Send',
    status: 'running',
    source: 'quick',
    templateName: 'offer',
    language: 'en_US',
    category: 'MARKETING',
    totalRecipients: 4,
    billable: 4,
    invalid: 0,
    counts: { queued: 1, sending: 1, unknown: 0, sent: 1, delivered: 1, read: 0, failed: 0, cancelled: 0, duplicate: 0, suppressed: 0 },
    processed: 2,
    pricePerMessage: 0.8,
    totalCost: 3.2,
    refunded: 0,
    createdAt: '2025-11-21T10:00:00.000Z',
    completedAt: null,
    scheduledAt: null,
    failureReason: null,
    ...overrides,
  };
}

describe('campaign progress', () => {
  it('is the share of billable messages processed', () => {
    expect(campaignProgress(campaign())).toEqual({ percent: 50, processed: 2, total: 4, finished: false, pending: 2 });
  });

  it('is whole when completed or when nothing was billable', () => {
    expect(campaignProgress(campaign({ status: 'completed', processed: 4 })).percent).toBe(100);
    expect(campaignProgress(campaign({ billable: 0, processed: 0, status: 'running' })).percent).toBe(100);
    expect(campaignProgress(campaign({ status: 'cancelled', processed: 1 }))).toMatchObject({ percent: 25, finished: true });
  });
});

describe('a refused send', () => {
  it('says which send failed, with the server words or the status', () => {
    expect(sendFailure({ status: 402, serverMessage: 'Insufficient balance' }, false)).toEqual({
      title: s.sendingFailed,
      description: 'Insufficient balance',
    });
    expect(sendFailure({ status: 502 }, true)).toEqual({ title: s.bulkSendingFailed, description: 'Sending failed with status 502' });
    expect(sendFailure({ status: 0 }, false).description).toBe(messages.common.networkErrorRetry);
  });

  it('lists the skipped rows as a CSV Excel reads as UTF-8', () => {
    const csv = skippedRowsCsv([{ row: 2, value: '12', reason: 'invalid_number', message: 'Invalid number: too short' }]);
    expect(csv.startsWith('\uFEFFRow,Value,Why')).toBe(true);
    expect(csv).toContain('2,12,Invalid number: too short');
  });
});

describe('following a campaign after it completes', () => {
  const counts = { queued: 0, sending: 0, unknown: 0, sent: 0, delivered: 3, read: 0, failed: 0, cancelled: 0, duplicate: 0, suppressed: 0 };
  it('follows a running campaign, and a completed one while delivery reports are still due', () => {
    const completedAt = '2026-01-01T00:00:00.000Z';
    const at = (ms: number) => new Date(completedAt).getTime() + ms;
    expect(shouldFollowCampaign({ status: 'running', counts, completedAt: null })).toBe(true);
    expect(shouldFollowCampaign({ status: 'completed', counts, completedAt }, at(1000))).toBe(false);
    expect(shouldFollowCampaign({ status: 'completed', counts: { ...counts, sent: 1 }, completedAt }, at(1000))).toBe(true);
    expect(shouldFollowCampaign({ status: 'completed', counts: { ...counts, sent: 1 }, completedAt }, at(OUTCOME_FOLLOW_MS + 1))).toBe(false);
  });
});

describe('the later of two readings of a campaign', () => {
  const counts = { queued: 2, sending: 0, unknown: 0, sent: 2, delivered: 0, read: 0, failed: 0, cancelled: 0, duplicate: 0, suppressed: 0 };
  it('keeps the reading whose messages stand further along, so a late poll answer does not move the counts back', () => {
    const earlier = campaign({ counts, processed: 2 });
    const later = campaign({ counts: { ...counts, sent: 1, delivered: 1 }, processed: 2 });
    expect(laterCampaignReading(undefined, earlier)).toBe(earlier);
    expect(laterCampaignReading(earlier, later)).toBe(later);
    expect(laterCampaignReading(later, earlier)).toBe(later);
    // Same standing (a pause, say): the incoming one.
    const paused = campaign({ counts, processed: 2, status: 'paused' });
    expect(laterCampaignReading(earlier, paused)).toBe(paused);
  });

  it('never runs a finished campaign again, and takes another campaign as it comes', () => {
    const done = campaign({ counts: { ...counts, queued: 0, sent: 4 }, processed: 4, status: 'completed' });
    const stale = campaign({ counts, processed: 2 });
    expect(laterCampaignReading(done, stale)).toBe(done);
    expect(laterCampaignReading(stale, done)).toBe(done);
    const other = campaign({ id: 8, counts: { ...counts, queued: 4, sent: 0 }, processed: 0 });
    expect(laterCampaignReading(done, other)).toBe(other);
  });
});

describe('scheduled campaigns', () => {
  it('calls a scheduled campaign unfinished and one that failed to start finished', () => {
    expect(isCampaignFinished('scheduled')).toBe(false);
    expect(isCampaignFinished('failed')).toBe(true);
    expect(CAMPAIGN_STATUS_LABELS.scheduled).toBe('Scheduled');
    expect(CAMPAIGN_STATUS_LABELS.failed).toBe('Failed to start');
  });

  it('does not let a stale scheduled reading overturn one that failed to start', () => {
    const failed = campaign({ status: 'failed', failureReason: 'Template not available', counts: { queued: 0, sending: 0, unknown: 0, sent: 0, delivered: 0, read: 0, failed: 0, cancelled: 0, duplicate: 0, suppressed: 0 }, processed: 0 });
    expect(laterCampaignReading(failed, campaign({ status: 'scheduled', processed: 0 })).status).toBe('failed');
  });
});
