/**
 * What Meta's moves of a template do to the campaigns that use it (docs/sending.md, "Template
 * holds"; the mapping of Meta's events: docs/decisions/2026-12-07-template-events-from-meta.md):
 *
 * - PAUSED or APPEAL_REQUESTED: running and scheduled campaigns pause with `template_paused`; their
 *   unsent messages stay queued (the dispatcher sends only for running campaigns) and messages a
 *   worker had claimed but not yet handed to the provider are taken back, as a user's pause does.
 *   Only requests already in flight can still reach Meta.
 * - back in use (APPROVED after Meta's REINSTATED): campaigns held for the template return to the
 *   status they had (`running`: their messages are due at once; `scheduled`: they start at their
 *   time). A campaign its owner paused stays paused.
 * - DISABLED or REJECTED: every open campaign (running, scheduled, paused) fails with the reason,
 *   and every message not handed to the provider fails and is refunded through the wallet's refund
 *   path (each message's own price, flagged once, so the sum is exact).
 *
 * Every step is a conditional update on the campaign's status in its own transaction, so applying
 * the same status again (Meta's retry, another instance) changes nothing more; the rule follows the
 * template's current status, so a repeat also finishes what a stopped process left. The owner's
 * notice and the integrators' `template.status_changed` are told once per move (fixed keys and
 * event ids).
 */
import type { Knex } from 'knex';
import { fillMessage, messages as catalogue } from '@shared/messages';
import type { PriceCategory } from '@shared/pricing';
import { templateStatusLabel, USABLE_TEMPLATE_STATUSES } from '@shared/templates';
import { forUpdateIfSupported } from '../db/dialect';
import type { Logger } from '../logger';
import type { WalletService } from '../wallet/service';
import type { MessageRow } from '../db/rows/messages';
import { PAUSED_HOLD_MS } from './dispatcher';
import type { SendingEngine } from './engine';
import { withConflictRetry } from './messageOutcomes';
import { ENDED_TEMPLATE_STATUSES, HELD_TEMPLATE_STATUSES, type TemplateCategoryMove, type TemplateStatusMove } from '../templates/templateEvents';

/** The reason a held campaign carries (campaigns.pause_reason). */
export const TEMPLATE_PAUSED = 'template_paused';

const HOLDING = HELD_TEMPLATE_STATUSES;
const ENDING = ENDED_TEMPLATE_STATUSES;

export type CampaignAction = 'paused' | 'resumed' | 'failed';

/** What one application of a template's status did to its campaigns. */
export interface HoldOutcome {
  action: CampaignAction | null;
  campaignIds: number[];
  /** Messages held (paused) or failed and refunded. */
  messages: number;
  /** Credit units refunded (failed campaigns). */
  refundedUnits: number;
  /** The template as it was read. */
  template?: { userId: number; name: string; status: string };
}

interface OpenCampaign {
  id: number;
  userId: number;
  name: string;
  status: string;
  heldFrom: string | null;
}

/** The slice of the notification service the holds tell. */
export interface TemplateHoldNotices {
  templateStatusChanged(userId: number, notice: { templateId: number; name: string; status: string; at: Date; outcome: HoldOutcome; byAdmin?: boolean; reason?: string | null }): Promise<void>;
  templateCategoryChanged(userId: number, notice: { templateId: number; name: string; from: string; to: string; oldUnits: number; newUnits: number; at: Date }): Promise<void>;
  campaignFailed(userId: number, campaign: { name: string; reason: string }, dedupeKey?: string): Promise<void>;
}

export class TemplateHolds {
  constructor(
    private readonly deps: {
      db: Knex;
      engine: Pick<SendingEngine, 'dispatcher' | 'outcomes' | 'materialiser' | 'requeueCampaign'>;
      wallet: Pick<WalletService, 'refundMessages'>;
      /** A user's price per message of a category, in credit units. */
      priceOf: (userId: number, category: PriceCategory) => Promise<number>;
      notices: TemplateHoldNotices;
      /** `template.status_changed` for integrators; `eventId` fixed per move, so a repeat is delivered once. */
      announce: (userId: number, data: Record<string, unknown>, eventId: string) => Promise<void>;
      log: Logger;
      now?: () => Date;
    },
  ) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /**
   * After a template status event was applied (WebhookIngest.onTemplateStatus): campaigns follow
   * the template's status as it now is; a move is told to the owner and to integrators. Never
   * throws: the webhook is answered whatever happens here, and Meta's next event, a retry or a
   * later move, applies the rule again.
   */
  async statusApplied(templateId: number, move: TemplateStatusMove | null): Promise<HoldOutcome | null> {
    try {
      const outcome = await this.follow(templateId, move);
      if (move) await this.tell(move, outcome);
      else if (outcome.campaignIds.length > 0 && outcome.template) {
        // Campaigns that followed late (a repeat finishing a stopped process's work, or the
        // dispatcher finding one still running): their owner hears of them; the conditional
        // updates behind a non-empty outcome happen once, so this is told once.
        const { template } = outcome;
        await this.deps.notices.templateStatusChanged(template.userId, { templateId, name: template.name, status: template.status, at: this.now(), outcome });
      }
      return outcome;
    } catch (error) {
      this.deps.log.error({ err: error, templateId }, 'campaigns did not follow their template status');
      return null;
    }
  }

  /**
   * Meta refused a send because of the template (132015 paused, 132016 disabled, 132001 not there:
   * providers/metaErrors.ts): the template moves as Meta's own event would move it, from a status in
   * use only (a later webhook's status stands), and its campaigns follow. Never throws.
   */
  async refusedAtSend(templateId: number, status: 'PAUSED' | 'DISABLED'): Promise<HoldOutcome | null> {
    try {
      const nowIso = this.now().toISOString();
      await this.deps.db('templates')
        .where({ id: templateId })
        .whereIn('status', USABLE_TEMPLATE_STATUSES as readonly string[])
        .update({ status, updatedAt: nowIso });
    } catch (error) {
      this.deps.log.error({ err: error, templateId }, 'template refused by Meta not moved');
      return null;
    }
    return this.statusApplied(templateId, null);
  }

  /** Campaigns of the template follow its current status. */
  async follow(templateId: number, move: TemplateStatusMove | null): Promise<HoldOutcome> {
    const template = (await this.deps.db('templates').where({ id: templateId }).first('id', 'userId', 'name', 'status')) as
      | { id: number; userId: number | string; name: string; status: string }
      | undefined;
    const none: HoldOutcome = { action: null, campaignIds: [], messages: 0, refundedUnits: 0 };
    if (!template) return none;
    const userId = Number(template.userId);
    const read = { template: { userId, name: template.name, status: template.status } };
    if (HOLDING.has(template.status)) return { ...(await this.hold(templateId, userId)), ...read };
    if (ENDING.has(template.status)) {
      const reason = move?.byAdmin
        ? fillMessage(catalogue.templateHolds.campaignEndedByAdmin, { name: template.name, reason: move.reason ?? '' })
        : fillMessage(catalogue.templateHolds.campaignEnded, { name: template.name, status: templateStatusLabel(template.status) });
      return { ...(await this.end(templateId, userId, reason)), ...read };
    }
    if ((USABLE_TEMPLATE_STATUSES as readonly string[]).includes(template.status)) return { ...(await this.release(templateId, userId, move !== null)), ...read };
    return none;
  }

  private async campaignsOf(templateId: number, userId: number, statuses: readonly string[], onlyHeld = false): Promise<OpenCampaign[]> {
    const query = this.deps.db('campaigns').where({ userId, templateId }).whereIn('status', statuses);
    if (onlyHeld) query.where({ pauseReason: TEMPLATE_PAUSED });
    const rows = (await query.orderBy('id').select('id', 'userId', 'name', 'status', 'heldFrom')) as OpenCampaign[];
    return rows.map((row) => ({ ...row, id: Number(row.id), userId: Number(row.userId) }));
  }

  /** Running and scheduled campaigns pause with `template_paused`, remembering what they were. */
  private async hold(templateId: number, userId: number): Promise<HoldOutcome> {
    const outcome: HoldOutcome = { action: 'paused', campaignIds: [], messages: 0, refundedUnits: 0 };
    for (const campaign of await this.campaignsOf(templateId, userId, ['running', 'scheduled'])) {
      let held = false;
      await withConflictRetry(() =>
        this.deps.db.transaction(async (trx) => {
          const nowIso = this.now().toISOString();
          held =
            (await trx('campaigns')
              .where({ id: campaign.id, status: campaign.status })
              .update({ status: 'paused', pauseReason: TEMPLATE_PAUSED, heldFrom: campaign.status, updatedAt: nowIso })) > 0;
          if (!held || campaign.status !== 'running') return;
          // Claimed by a worker but not handed to the provider: back to the queue, tokens cleared,
          // so the worker's handoff finds them gone (as CampaignService.pause).
          await trx('messages')
            .where({ campaignId: campaign.id, status: 'sending' })
            .whereNull('handedAt')
            .update({ status: 'queued', claimToken: null, leaseUntil: null, nextAttemptAt: new Date(Date.now() + PAUSED_HOLD_MS).toISOString(), attempts: trx.raw('attempts - 1'), updatedAt: nowIso });
        }),
      );
      if (!held) continue;
      this.deps.engine.dispatcher.forgetCampaign(campaign.id);
      outcome.campaignIds.push(campaign.id);
      outcome.messages += await this.unsentCount(campaign.id);
    }
    if (outcome.campaignIds.length > 0) {
      this.deps.engine.outcomes.onCampaignsProgressed?.(outcome.campaignIds);
      this.deps.log.info({ templateId, campaigns: outcome.campaignIds }, 'campaigns paused: their template was paused by Meta');
    }
    return outcome;
  }

  /** Campaigns held for the template return to what they were; those their owner paused stay. */
  private async release(templateId: number, userId: number, moved: boolean): Promise<HoldOutcome> {
    const outcome: HoldOutcome = { action: 'resumed', campaignIds: [], messages: 0, refundedUnits: 0 };
    if (!moved) {
      // Nothing was held for a template that stayed in use: skip the read on every repeat.
      const any = await this.deps.db('campaigns').where({ userId, templateId, status: 'paused', pauseReason: TEMPLATE_PAUSED }).first('id');
      if (!any) return outcome;
    }
    for (const campaign of await this.campaignsOf(templateId, userId, ['paused'], true)) {
      const back = campaign.heldFrom === 'scheduled' ? 'scheduled' : 'running';
      const changed = await this.deps.db('campaigns')
        .where({ id: campaign.id, status: 'paused', pauseReason: TEMPLATE_PAUSED })
        .update({ status: back, pauseReason: null, heldFrom: null, updatedAt: this.now().toISOString() });
      if (changed === 0) continue;
      // A scheduled one starts at its time (or at once when that passed) through ScheduledCampaigns.
      if (back === 'running') {
        await this.deps.engine.requeueCampaign(campaign.id);
        await this.deps.engine.outcomes.completeCampaigns([campaign.id]);
      }
      outcome.campaignIds.push(campaign.id);
      outcome.messages += await this.unsentCount(campaign.id);
    }
    if (outcome.campaignIds.length > 0) this.deps.log.info({ templateId, campaigns: outcome.campaignIds }, 'campaigns resumed: their template is back in use');
    return outcome;
  }

  /**
   * Every open campaign fails with the reason: in one transaction per campaign, its messages not
   * handed to the provider fail and are refunded (as a cancel takes them, staged rows included).
   * Handed ones finish; `unknown` ones are refunded when their outcome is a failure.
   */
  private async end(templateId: number, userId: number, reason: string): Promise<HoldOutcome> {
    const outcome: HoldOutcome = { action: 'failed', campaignIds: [], messages: 0, refundedUnits: 0 };
    const { engine } = this.deps;
    for (const campaign of await this.campaignsOf(templateId, userId, ['running', 'scheduled', 'paused'])) {
      let failedIds: number[] = [];
      let refunded = 0;
      let ended = false;
      await withConflictRetry(() =>
        this.deps.db.transaction(async (trx) => {
          failedIds = [];
          refunded = 0;
          ended = false;
          await engine.materialiser.excludeChunks(trx, campaign.id);
          const nowIso = this.now().toISOString();
          const changed = await trx('campaigns')
            .where({ id: campaign.id })
            .whereIn('status', ['running', 'scheduled', 'paused'])
            .update({ status: 'failed', failureReason: reason.slice(0, 500), completedAt: nowIso, updatedAt: nowIso, apiDay: null, pauseReason: null, heldFrom: null });
          if (changed === 0) return;
          await engine.materialiser.materialiseAll(trx, campaign.id);
          let unsent = trx('messages')
            .where({ campaignId: campaign.id })
            .where((q) => q.where({ status: 'queued' }).orWhere((w) => w.where({ status: 'sending' }).whereNull('handedAt')))
            .select('id');
          unsent = forUpdateIfSupported(unsent, this.deps.db);
          const ids = ((await unsent) as Pick<MessageRow, 'id'>[]).map((row) => Number(row.id));
          for (let start = 0; start < ids.length; start += 900) {
            await trx('messages')
              .whereIn('id', ids.slice(start, start + 900))
              .where((q) => q.where({ status: 'queued' }).orWhere((w) => w.where({ status: 'sending' }).whereNull('handedAt')))
              .update({ status: 'failed', failedAt: nowIso, claimToken: null, leaseUntil: null, errorCode: null, errorMessage: catalogue.templateHolds.campaignEndedError, updatedAt: nowIso });
          }
          const refund = await this.deps.wallet.refundMessages(trx, ids);
          failedIds = ids;
          refunded = refund.units;
          await engine.outcomes.recordMessageStatuses?.(trx, [{ status: 'failed', messageIds: ids }]);
          ended = true;
        }),
      );
      if (!ended) continue;
      outcome.campaignIds.push(campaign.id);
      engine.dispatcher.forgetCampaign(campaign.id);
      outcome.messages += failedIds.length;
      outcome.refundedUnits += refunded;
      if (failedIds.length > 0) engine.outcomes.onMessageStatuses?.([{ status: 'failed', messageIds: failedIds }]);
      engine.outcomes.onCampaignsProgressed?.([campaign.id]);
      await this.deps.notices.campaignFailed(campaign.userId, { name: campaign.name, reason }, `campaign:${campaign.id}:completed`);
    }
    if (outcome.campaignIds.length > 0) this.deps.log.info({ templateId, campaigns: outcome.campaignIds, refundedUnits: outcome.refundedUnits }, 'campaigns failed: their template was disabled by Meta');
    return outcome;
  }

  /** Messages of a campaign not yet handed to the provider (queued, or staged still). */
  private async unsentCount(campaignId: number): Promise<number> {
    const queued = (await this.deps.db('messages').where({ campaignId, status: 'queued' }).count({ n: '*' }).first()) as { n: number | string } | undefined;
    const staged = (await this.deps.db('campaigns').where({ id: campaignId }).first('stagedRecipients')) as { stagedRecipients: number | string | null } | undefined;
    return Number(queued?.n ?? 0) + Number(staged?.stagedRecipients ?? 0);
  }

  /** The owner's notice and the integrators' event, once per move. */
  private async tell(move: TemplateStatusMove, outcome: HoldOutcome): Promise<void> {
    // A template still in review (Meta's appeal or rejection of a new one) had nothing to hold:
    // the owner hears of it through the review, not as a hold.
    const wasInUse = (USABLE_TEMPLATE_STATUSES as readonly string[]).includes(move.from) || HOLDING.has(move.from) || move.from === 'DISABLED';
    if (wasInUse) {
      await this.deps.notices.templateStatusChanged(move.userId, { templateId: move.templateId, name: move.name, status: move.to, at: move.at, outcome, byAdmin: move.byAdmin === true, reason: move.reason });
    }
    await this.deps.announce(
      move.userId,
      {
        template_id: move.templateId,
        name: move.name,
        language: move.language,
        status: move.to,
        previous_status: move.from,
        meta_event: move.metaEvent,
        reason: move.reason,
        changed_at: move.at.toISOString(),
        campaigns: { action: outcome.campaignIds.length > 0 ? outcome.action : null, campaign_ids: outcome.campaignIds },
      },
      // At most 40 characters (the outbox column): the template, the event's time in base 36 and
      // the status's first letters.
      `evt_tpl_${move.templateId}_${move.at.getTime().toString(36)}_${move.to.slice(0, 4)}`.slice(0, 40),
    );
  }

  /**
   * After Meta moved a template's category: later sends are priced by it (acceptance reads the
   * template's category), campaigns accepted before keep the price they were charged; the owner
   * is told the old and the new price per message.
   */
  async categoryChanged(move: TemplateCategoryMove): Promise<void> {
    try {
      const [oldUnits, newUnits] = await Promise.all([
        this.deps.priceOf(move.userId, move.from.toLowerCase() as PriceCategory),
        this.deps.priceOf(move.userId, move.to.toLowerCase() as PriceCategory),
      ]);
      await this.deps.notices.templateCategoryChanged(move.userId, { templateId: move.templateId, name: move.name, from: move.from, to: move.to, oldUnits, newUnits, at: move.at });
    } catch (error) {
      this.deps.log.error({ err: error, templateId: move.templateId }, 'template category change not told');
    }
  }
}
