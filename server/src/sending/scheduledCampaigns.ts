/**
 * Scheduled sends: campaigns accepted for later wait as `scheduled`, already priced and
 * debited, their messages queued without queue jobs (and due only at the scheduled time, so the
 * embedded dispatcher's claim never scans them). Every instance looks for due ones every few
 * seconds; each start is one transaction whose first step is the conditional
 * `scheduled -> running` update, so of several instances exactly one starts a campaign (the others
 * find the row changed) and its queue jobs are made in that same transaction.
 *
 * A campaign whose template was disabled, rejected or deleted meanwhile does not start: it becomes
 * `failed` with the reason, its messages fail with it and are refunded in full. One whose template
 * Meta holds (paused, in appeal) waits paused for it instead.
 */
import type { Knex } from 'knex';
import { fillMessage, messages as catalogue } from '@shared/messages';
import { USABLE_TEMPLATE_STATUSES } from '@shared/templates';
import type { Logger } from '../logger';
import { OutageLog } from '../db/outage';
import type { CampaignRow } from '../db/rows/campaigns';
import type { MessageRow } from '../db/rows/messages';
import type { CampaignAcceptance } from './campaignAcceptance';
import type { MessageOutcomes } from './messageOutcomes';
import { HELD_TEMPLATE_STATUSES } from '../templates/templateEvents';
import { TEMPLATE_PAUSED } from './templateHolds';

/** How often each instance looks for scheduled campaigns that are due. */
export const SCHEDULE_CHECK_MS = 5_000;
/** Campaigns started per look (the rest wait for the next one, seconds later). */
const STARTS_PER_LOOK = 50;

export interface StartedCampaigns {
  started: number[];
  failed: number[];
}

type DueCampaign = Pick<CampaignRow, 'id' | 'userId' | 'name' | 'templateId' | 'templateName'>;

export class ScheduledCampaigns {
  private timer: NodeJS.Timeout | null = null;
  private looking: Promise<StartedCampaigns> | null = null;

  constructor(
    private readonly deps: {
      db: Knex;
      acceptance: CampaignAcceptance;
      outcomes: MessageOutcomes;
      log: Logger;
      /** After a start committed: the queue looks for work (SQLite's dispatcher polls otherwise). */
      onStarted: () => void;
      /** A campaign that could not start, after its refund committed (the owner's notification). */
      onFailed?: (campaign: { id: number; userId: number; name: string; reason: string }) => void;
      checkEveryMs?: number;
      now?: () => Date;
    },
  ) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  start(): void {
    if (this.timer) return;
    const failures = new OutageLog(this.deps.log, 'starting scheduled campaigns');
    this.timer = setInterval(() => void failures.tick(() => this.startDue()), this.deps.checkEveryMs ?? SCHEDULE_CHECK_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.looking?.catch(() => undefined);
  }

  /** Starts (or fails) every scheduled campaign that is due; one look at a time per instance. */
  startDue(): Promise<StartedCampaigns> {
    this.looking ??= this.look().finally(() => {
      this.looking = null;
    });
    return this.looking;
  }

  private async look(): Promise<StartedCampaigns> {
    const result: StartedCampaigns = { started: [], failed: [] };
    for (;;) {
      const due = (await this.deps.db('campaigns')
        .where({ status: 'scheduled' })
        .where('scheduledAt', '<=', this.now().toISOString())
        .orderBy('scheduledAt')
        .limit(STARTS_PER_LOOK)
        .select('id', 'userId', 'name', 'templateId', 'templateName')) as DueCampaign[];
      for (const campaign of due) {
        const outcome = await this.startOne(campaign);
        if (outcome) result[outcome].push(Number(campaign.id));
      }
      if (due.length < STARTS_PER_LOOK) break;
    }
    if (result.started.length > 0) this.deps.onStarted();
    return result;
  }

  /** Answers what this instance did with the campaign, or null when another instance (or a cancel) got there first. */
  private async startOne(campaign: DueCampaign): Promise<'started' | 'failed' | null> {
    const reason = fillMessage(catalogue.campaigns.templateUnavailableAtStart, { name: campaign.templateName });
    let failedIds: number[] = [];
    const outcome = await this.deps.db.transaction(async (trx): Promise<'started' | 'failed' | null> => {
      const nowIso = this.now().toISOString();
      const status = campaign.templateId === null ? null : await this.templateStatus(trx, Number(campaign.templateId));
      if (status !== null && HELD_TEMPLATE_STATUSES.has(status)) {
        // Meta holds its template for a while (templateHolds.ts): it waits, paused, rather than
        // failing; Meta's reinstatement puts it back on its schedule.
        await trx('campaigns').where({ id: campaign.id, status: 'scheduled' }).update({ status: 'paused', pauseReason: TEMPLATE_PAUSED, heldFrom: 'scheduled', updatedAt: nowIso });
        return null;
      }
      const usable = status !== null && USABLE_TEMPLATE_STATUSES.includes(status as never);
      const changed = await trx('campaigns')
        .where({ id: campaign.id, status: 'scheduled' })
        .update(usable ? { status: 'running', updatedAt: nowIso } : { status: 'failed', failureReason: reason, completedAt: nowIso, updatedAt: nowIso });
      if (changed === 0) return null;
      if (usable) {
        await this.deps.acceptance.releaseScheduled(trx, Number(campaign.id));
        return 'started';
      }
      failedIds = await this.failUnstarted(trx, Number(campaign.id), nowIso);
      await this.deps.outcomes.recordMessageStatuses?.(trx, [{ status: 'failed', messageIds: failedIds }]);
      return 'failed';
    });
    if (outcome === 'failed') {
      this.deps.log.info({ campaignId: campaign.id }, 'scheduled campaign failed: template unavailable');
      this.deps.outcomes.onMessageStatuses?.([{ status: 'failed', messageIds: failedIds }]);
      this.deps.outcomes.onCampaignsProgressed?.([Number(campaign.id)]);
      this.deps.onFailed?.({ id: Number(campaign.id), userId: Number(campaign.userId), name: campaign.name, reason });
    }
    return outcome;
  }

  private async templateStatus(trx: Knex.Transaction, templateId: number): Promise<string | null> {
    const template = (await trx('templates').where({ id: templateId }).first('status')) as { status: string } | undefined;
    return template?.status ?? null;
  }

  /** Every queued message fails with the reason and is refunded (it never reached a worker). */
  private async failUnstarted(trx: Knex.Transaction, campaignId: number, nowIso: string): Promise<number[]> {
    const ids = ((await trx('messages').where({ campaignId, status: 'queued' }).select('id')) as Pick<MessageRow, 'id'>[]).map((row) => Number(row.id));
    for (let start = 0; start < ids.length; start += 900) {
      await trx('messages')
        .whereIn('id', ids.slice(start, start + 900))
        .where({ status: 'queued' })
        .update({ status: 'failed', failedAt: nowIso, claimToken: null, leaseUntil: null, errorCode: null, errorMessage: catalogue.campaigns.templateUnavailableError, updatedAt: nowIso });
    }
    await this.deps.outcomes.refundFailed(trx, ids);
    return ids;
  }
}
