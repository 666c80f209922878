/**
 * Campaigns after acceptance: the user's list and live counts, pause, resume and
 * cancel, resend to failed, and the figures of the dashboards and the reports chart.
 *
 * How the engine takes a change of state: pause and cancel change the campaign and take the
 * messages workers claimed but had not handed to the provider in one transaction; a worker hands a
 * message over only while its campaign runs (dispatcher.ts), so nothing is sent once they answer.
 */
import type { Knex } from 'knex';
import { forUpdateIfSupported, istDaySql } from '../db/dialect';
import { messageFigures } from '@shared/figures';
import { fillMessage, messages } from '@shared/messages';
import type { PriceCategory } from '@shared/pricing';
import type { TTimelinePoint } from '@shared/schemas/reports';
import type { TCampaign, TCampaignCounts } from '@shared/schemas/sending';
import { templateStatusLabel, USABLE_TEMPLATE_STATUSES } from '@shared/templates';
import { AppError, BadRequestError, ConflictError, NotFoundError } from '../errors';
import { Template, type User } from '../models';
import { CAMPAIGN_COLUMNS, type StoredCampaign } from '../db/rows/campaigns';
import { messageVariables, type MessageRow } from '../db/rows/messages';
import type { PricingService } from '../pricing/service';
import type { AcceptedCampaign, CampaignAcceptance } from './campaignAcceptance';
import { STAGED_STATUS_SQL, type RecipientRow } from './acceptance/messageRows';
import type { SendingEngine } from './engine';
import { PAUSED_HOLD_MS } from './dispatcher';
import { checkScheduleTime } from './schedule';
import { OPTED_OUT_ERROR_CODE, withConflictRetry } from './messageOutcomes';
import type { SendingService, SendPreview } from './service';
import { DailyTotalsReader } from '../retention/dailyTotals';
import { istDay, istDayStart, istMonthStart } from '../istCalendar';

const DAY_MS = 86_400_000;

/**
 * Statuses travel late (a read can come days after the send): the chart counts events of messages
 * created up to this long before its first day, so that the user's index bounds the scan.
 */
const TIMELINE_LOOKBACK_MS = 30 * 24 * 3_600_000;
/** Contacts per query when finding a group of recipients: under every database's bound-parameter limit. */
const RECIPIENT_CHUNK = 500;

/**
 * A pause or cancel waits for the sends already handed to the provider until each is answered or
 * has timed out (DISPATCH_SEND_TIMEOUT_SECONDS, then `unknown`), and this much longer for the
 * outcome to be written: then none is still `sending` when it answers, however slow the provider
 * or the machine. A fixed 10 s answered with sends still open beside busy loops, where a send may
 * wait 15 s for its answer.
 */
const HANDED_OUTCOME_WRITE_MS = 5_000;

type CountRow = { campaignId: number | string; status: string; n: number | string };

/** Message counts of a campaign by status, all zero. */
export function emptyCounts(): TCampaignCounts {
  return { queued: 0, sending: 0, unknown: 0, sent: 0, delivered: 0, read: 0, failed: 0, cancelled: 0, duplicate: 0, suppressed: 0 };
}

/** A campaign with its live message counts (kept per-day totals of deleted rows included). */
export interface CampaignRecord {
  campaign: StoredCampaign;
  counts: TCampaignCounts;
  /** Contacts who replied to the campaign (conversations/service.ts links each reply). */
  replies?: number;
  /** The member who sent it, by name; null when no member did (an API key, or before teams). */
  sentBy?: { userId: number; name: string } | null;
}

export interface CampaignPage {
  campaigns: CampaignRecord[];
  total: number;
  page: number;
  totalPages: number;
}

/** The user dashboard's Account Overview figures for this calendar month in India, money in credit units. */
export interface AccountOverview {
  messagesThisMonth: number;
  deliveryRate: number;
  readRate: number;
  spendUnits: number;
  refundUnits: number;
  activeCampaigns: number;
}

export class CampaignService {
  /** Figures of messages the log cleanup deleted: every reader below adds them. */
  private readonly kept: DailyTotalsReader;

  constructor(
    private readonly deps: {
      db: Knex;
      engine: SendingEngine;
      acceptance: CampaignAcceptance;
      sending: SendingService;
      pricing: PricingService;
      /** How long one send waits for the provider to answer (DISPATCH_SEND_TIMEOUT_SECONDS). */
      sendTimeoutMs: number;
      now?: () => Date;
    },
  ) {
    this.kept = new DailyTotalsReader(deps.db);
  }


  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /** One of the user's campaigns; another user's answers 404 like a missing one. */
  private async find(user: User, id: number): Promise<StoredCampaign> {
    const row = (await this.deps.db('campaigns')
      .where({ id, userId: user.id })
      .first(...CAMPAIGN_COLUMNS)) as StoredCampaign | undefined;
    if (!row) throw NotFoundError(messages.sending.campaignNotFound, 'campaign_not_found');
    return row;
  }

  /** Message counts by status of the given campaigns, in one grouped query on (campaign_id, status). */
  private async countsFor(campaignIds: readonly number[]): Promise<Map<number, TCampaignCounts>> {
    const counts = new Map<number, TCampaignCounts>(campaignIds.map((id) => [id, emptyCounts()]));
    if (campaignIds.length === 0) return counts;
    // A large campaign's recipients still staged (materialiser.ts) count by their fate at
    // acceptance; one statement reads both tables at one moment while rows move between them.
    const list = campaignIds.map(() => '?').join(', ');
    const result = (await this.deps.db.raw(
      `select campaign_id as "campaignId", status, count(*) as n from messages where campaign_id in (${list}) group by campaign_id, status
       union all
       select campaign_id, ${STAGED_STATUS_SQL}, count(*) from campaign_recipients
        where campaign_id in (select id from campaigns where id in (${list}) and staged_recipients > 0) group by campaign_id, status_code`,
      [...campaignIds, ...campaignIds],
    )) as CountRow[] | { rows: CountRow[] };
    for (const row of Array.isArray(result) ? result : result.rows) {
      const entry = counts.get(Number(row.campaignId));
      if (entry && row.status in entry) entry[row.status as keyof TCampaignCounts] += Number(row.n);
    }
    for (const [campaignId, byStatus] of await this.kept.campaignStatusCounts(campaignIds)) {
      const entry = counts.get(campaignId);
      for (const [status, n] of byStatus) if (entry && status in entry) entry[status as keyof TCampaignCounts] += n;
    }
    return counts;
  }

  /** Contacts who replied, per campaign: distinct senders of messages linked to it (reactions aside). */
  private async repliesFor(campaignIds: readonly number[]): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    if (campaignIds.length === 0) return out;
    const rows = (await this.deps.db('conversation_messages')
      .whereIn('campaignId', campaignIds)
      .where({ direction: 'in' })
      .whereNot({ kind: 'reaction' })
      .groupBy('campaignId')
      .select('campaignId', this.deps.db.raw('count(distinct ??) as n', ['contact']))) as { campaignId: number | string; n: number | string }[];
    for (const row of rows) out.set(Number(row.campaignId), Number(row.n));
    return out;
  }

  /** Live counts of one of the user's campaigns (the send screens poll this). */
  async get(user: User, id: number): Promise<CampaignRecord> {
    const campaign = await this.find(user, id);
    const [counts, replies, senders] = await Promise.all([this.countsFor([id]), this.repliesFor([id]), this.sendersOf([campaign])]);
    return { campaign, counts: counts.get(id) ?? emptyCounts(), replies: replies.get(id) ?? 0, sentBy: senders.get(Number(campaign.actorUserId)) ?? null };
  }

  /** The names of the members who sent these campaigns, by user id. */
  private async sendersOf(campaigns: readonly StoredCampaign[]): Promise<Map<number, { userId: number; name: string }>> {
    const ids = [...new Set(campaigns.flatMap((campaign) => (campaign.actorUserId === null || campaign.actorUserId === undefined ? [] : [Number(campaign.actorUserId)])))];
    if (ids.length === 0) return new Map();
    const rows = (await this.deps.db('users').whereIn('id', ids).select('id', 'name')) as { id: number | string; name: string }[];
    return new Map(rows.map((row) => [Number(row.id), { userId: Number(row.id), name: row.name }]));
  }

  /** Who owns a campaign (its live progress goes to that user's streams); null when it is gone. */
  async ownerOf(id: number): Promise<number | null> {
    const row = (await this.deps.db('campaigns').where({ id }).first('userId')) as { userId: number | string } | undefined;
    return row ? Number(row.userId) : null;
  }

  /** One campaign's live counts, for the owner's notification stream; null when gone. */
  async progress(id: number): Promise<CampaignRecord | null> {
    const campaign = (await this.deps.db('campaigns').where({ id }).first(...CAMPAIGN_COLUMNS)) as StoredCampaign | undefined;
    if (!campaign) return null;
    const [counts, replies] = await Promise.all([this.countsFor([id]), this.repliesFor([id])]);
    return { campaign, counts: counts.get(id) ?? emptyCounts(), replies: replies.get(id) ?? 0 };
  }

  /**
   * The campaigns a user's send dialogs may be following, newest first: running or paused ones,
   * and those finished within `followMs` (their delivery reports are still arriving).
   */
  async followed(userId: number, followMs: number, limit: number): Promise<number[]> {
    const since = new Date(this.now().getTime() - followMs).toISOString();
    const rows = (await this.deps.db('campaigns')
      .where({ userId })
      .where((q) => q.whereIn('status', ['running', 'paused']).orWhere('completedAt', '>=', since))
      .orderBy('id', 'desc')
      .limit(limit)
      .select('id')) as { id: number | string }[];
    return rows.map((row) => Number(row.id));
  }

  /** The user's campaigns, newest first, with live counts. */
  async list(user: User, query: { page: number; limit: number; status?: string | undefined }): Promise<CampaignPage> {
    const base = this.deps.db('campaigns').where({ userId: user.id });
    if (query.status) base.where({ status: query.status });
    const [totalRow, rows] = await Promise.all([
      base.clone().count({ n: '*' }).first() as Promise<{ n: number | string } | undefined>,
      base
        .clone()
        .orderBy('createdAt', 'desc')
        .orderBy('id', 'desc')
        .limit(query.limit)
        .offset((query.page - 1) * query.limit)
        .select(...CAMPAIGN_COLUMNS) as Promise<StoredCampaign[]>,
    ]);
    const total = Number(totalRow?.n ?? 0);
    const ids = rows.map((row) => Number(row.id));
    const [counts, replies, senders] = await Promise.all([this.countsFor(ids), this.repliesFor(ids), this.sendersOf(rows)]);
    return {
      campaigns: rows.map((campaign) => ({
        campaign,
        counts: counts.get(Number(campaign.id)) ?? emptyCounts(),
        replies: replies.get(Number(campaign.id)) ?? 0,
        sentBy: senders.get(Number(campaign.actorUserId)) ?? null,
      })),
      total,
      page: query.page,
      totalPages: Math.max(1, Math.ceil(total / query.limit)),
    };
  }

  /**
   * running -> paused, final when it answers: in the same transaction the messages workers had
   * claimed but not yet handed to the provider are taken back (their tokens cleared, so no worker
   * sends them), and the answer waits for the sends already handed over to be answered.
   */
  async pause(user: User, id: number): Promise<CampaignRecord> {
    await this.find(user, id);
    await this.changeCampaignState(async (trx) => {
      const nowIso = this.now().toISOString();
      const changed = await trx('campaigns').where({ id, userId: user.id, status: 'running' }).update({ status: 'paused', updatedAt: nowIso });
      if (changed === 0) throw ConflictError('campaign_not_running', messages.campaigns.cannotPause);
      await trx('messages')
        .where({ campaignId: id, status: 'sending' })
        .whereNull('handedAt')
        .update({ status: 'queued', claimToken: null, leaseUntil: null, nextAttemptAt: new Date(Date.now() + PAUSED_HOLD_MS).toISOString(), attempts: trx.raw('attempts - 1'), updatedAt: nowIso });
    });
    this.deps.engine.dispatcher.forgetCampaign(id);
    await this.drainHanded(id);
    this.deps.engine.outcomes.onCampaignsProgressed?.([id]);
    return this.get(user, id);
  }

  /**
   * A pause, cancel or new time takes the campaign's row, then its messages in whatever order
   * PostgreSQL scans them, while the dispatcher, status ingestion and the scheduled start lock
   * some of them in another order: PostgreSQL may then end one side as a deadlock victim. Each
   * statement here is conditional, so the whole transaction runs again after the rollback, rather
   * than the user's click answering 500.
   */
  private changeCampaignState(change: (trx: Knex.Transaction) => Promise<void>): Promise<void> {
    return withConflictRetry(() => this.deps.db.transaction(change));
  }

  /**
   * Waits until no send of the campaign handed to the provider is still unanswered, so that
   * nothing reaches the provider after a pause or cancel has answered and its counts are final.
   * Bounded by the send's own timeout: a send still open after it (its outcome not written in
   * HANDED_OUTCOME_WRITE_MS more) was written long before; its answer (or a status) settles it.
   */
  private async drainHanded(campaignId: number): Promise<void> {
    const deadline = Date.now() + this.deps.sendTimeoutMs + HANDED_OUTCOME_WRITE_MS;
    for (;;) {
      const row = (await this.deps.db('messages').where({ campaignId, status: 'sending' }).whereNotNull('handedAt').count({ n: '*' }).first()) as { n: number | string } | undefined;
      if (Number(row?.n ?? 0) === 0 || Date.now() > deadline) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Resumes a stopped sender number and the campaigns paused for it (senderHealth.ts). */
  onResumeSender: ((numberId: number) => Promise<unknown>) | null = null;

  /** paused -> running: the messages held meanwhile are due at once. */
  async resume(user: User, id: number): Promise<CampaignRecord> {
    const campaign = await this.find(user, id);
    // Paused with its stopped sender number: resuming it resumes the number and all it held.
    if (campaign.status === 'paused' && campaign.pauseReason === 'sender_stopped' && this.onResumeSender) {
      await this.onResumeSender(campaign.senderNumberId);
      return this.get(user, id);
    }
    // Its number was disconnected: nothing can be sent until the number is connected again.
    if (campaign.status === 'paused' && campaign.pauseReason === 'number_disconnected') throw ConflictError('campaign_number_disconnected', messages.whatsappConnect.cannotResumeDisconnected);
    // Held for its template (templateHolds.ts): Meta's reinstatement resumes it, not the owner.
    if (campaign.status === 'paused' && campaign.pauseReason) throw ConflictError('campaign_held_for_template', messages.templateHolds.heldForTemplate);
    // Paused by its owner while Meta then paused its template: its sends would only be rejected.
    const template = campaign.status === 'paused' && campaign.templateId !== null ? await Template.query(this.deps.db).findById(campaign.templateId) : undefined;
    if (template && !USABLE_TEMPLATE_STATUSES.includes(template.status as never)) {
      throw ConflictError('template_not_usable', fillMessage(messages.templates.notUsable, { name: template.name, status: templateStatusLabel(template.status) }));
    }
    const nowIso = this.now().toISOString();
    const changed = await this.deps.db('campaigns').where({ id, userId: user.id, status: 'paused' }).whereNull('pauseReason').update({ status: 'running', updatedAt: nowIso });
    if (changed === 0) throw ConflictError('campaign_not_paused', messages.campaigns.cannotResume);
    await this.deps.engine.requeueCampaign(id);
    // Whatever was in flight when it paused may have been the last of it.
    await this.deps.engine.outcomes.completeCampaigns([id]);
    return this.get(user, id);
  }

  /**
   * scheduled, running or paused -> cancelled, in one transaction with failing and refunding every
   * message not yet handed to the provider (queued, or claimed by a worker that had not sent it
   * yet). A scheduled campaign has only queued ones: everything is refunded.
   * Handed ones finish (the answer waits for them); `unknown` ones wait for their final outcome,
   * and are refunded then if they were not sent.
   */
  async cancel(user: User, id: number): Promise<CampaignRecord & { wasScheduled: boolean }> {
    const before = await this.find(user, id);
    await this.changeCampaignState(async (trx) => {
      // Before the campaign's row: a chunk of staged rows in flight changes that row last.
      await this.deps.engine.materialiser.excludeChunks(trx, id);
      const nowIso = this.now().toISOString();
      const changed = await trx('campaigns')
        .where({ id, userId: user.id })
        .whereIn('status', ['scheduled', 'running', 'paused'])
        // A cancelled day campaign of the public API takes no more sends: the next opens another.
        .update({ status: 'cancelled', completedAt: nowIso, updatedAt: nowIso, apiDay: null });
      if (changed === 0) throw ConflictError('campaign_finished', messages.campaigns.cannotCancel);
      // Recipients still staged become queued messages first, failed and refunded with the rest.
      await this.deps.engine.materialiser.materialiseAll(trx, id);
      await this.deps.engine.outcomes.failCancelled(trx, id, 'queued');
      // Claimed by a worker but not handed to the provider: taken from the worker here (failing
      // them clears their token), so its handoff finds them gone and it does not send.
      let claimed = trx('messages').where({ campaignId: id, status: 'sending' }).whereNull('handedAt').select('id');
      claimed = forUpdateIfSupported(claimed, this.deps.db);
      const ids = ((await claimed) as Pick<MessageRow, 'id'>[]).map((row) => Number(row.id));
      if (ids.length > 0) await this.deps.engine.outcomes.failCancelled(trx, id, 'sending', ids);
    });
    this.deps.engine.dispatcher.forgetCampaign(id);
    await this.drainHanded(id);
    this.deps.engine.outcomes.onCampaignsProgressed?.([id]);
    return { ...(await this.get(user, id)), wasScheduled: before.status === 'scheduled' };
  }

  /**
   * A new time for a campaign that has not started. Conditional on `scheduled`, so it
   * cannot race the start: whichever commits first wins, and a started campaign answers 409. The
   * queued rows take the new time as their due time (the embedded dispatcher's claim skips them
   * until then).
   */
  async reschedule(user: User, id: number, at: Date): Promise<CampaignRecord> {
    await this.find(user, id);
    checkScheduleTime(at, 'app', this.now());
    const atIso = at.toISOString();
    await this.changeCampaignState(async (trx) => {
      const changed = await trx('campaigns').where({ id, userId: user.id, status: 'scheduled' }).update({ scheduledAt: atIso, updatedAt: this.now().toISOString() });
      if (changed === 0) throw ConflictError('campaign_not_scheduled', messages.campaigns.cannotReschedule);
      await trx('messages').where({ campaignId: id, status: 'queued' }).update({ nextAttemptAt: atIso });
    });
    return this.get(user, id);
  }

  /**
   * The recipients worth sending again, with their own values: failed messages except opt-outs
   * (131050: the recipient asked not to be sent to). Cancelled messages are not failed ones.
   */
  private async failedRecipients(campaignId: number): Promise<RecipientRow[]> {
    const rows = (await this.deps.db('messages')
      .where({ campaignId, status: 'failed' })
      .where((q) => q.whereNull('errorCode').orWhereNot('errorCode', OPTED_OUT_ERROR_CODE))
      .orderBy('id')
      .select('recipient', 'variables')) as Pick<MessageRow, 'recipient' | 'variables'>[];
    return rows.map((row) => ({ to: row.recipient, variables: messageVariables(row.variables) }));
  }

  /** What a resend needs: the campaign's own template (still usable), number and failed recipients. */
  private async resendPlan(user: User, id: number) {
    const campaign = await this.find(user, id);
    if (campaign.resentCampaignId !== null && campaign.resentCampaignId !== undefined) throw ConflictError('already_resent', messages.campaigns.alreadyResent);
    const recipients = await this.failedRecipients(id);
    if (recipients.length === 0) throw BadRequestError('nothing_to_resend', messages.campaigns.nothingToResend);
    return { campaign, recipients, ...(await this.sendingPlan(user, campaign)) };
  }

  /**
   * The campaign's own template (not one of the same name made since: it may have been deleted),
   * or the follow-up template the user chose, and the campaign's number.
   */
  private async sendingPlan(user: User, campaign: StoredCampaign, followUpTemplateId?: number) {
    const templateId = followUpTemplateId ?? campaign.templateId;
    const template = templateId === null ? undefined : await Template.query(this.deps.db).findOne({ id: templateId, userId: user.id });
    if (!template) throw new AppError(404, 'template_not_found', messages.templates.notFound);
    if (!USABLE_TEMPLATE_STATUSES.includes(template.status as never)) {
      throw new AppError(404, 'template_not_usable', fillMessage(messages.templates.notUsable, { name: template.name, status: templateStatusLabel(template.status) }));
    }
    const number = await this.deps.sending.resolveNumber(user, String(campaign.senderNumberId));
    return { template, number };
  }

  /** A campaign's recipients among `contacts`, each once with the values it was first sent with. */
  private async recipientsAmong(campaignId: number, contacts: readonly string[]): Promise<RecipientRow[]> {
    const seen = new Set<string>();
    const out: RecipientRow[] = [];
    for (let i = 0; i < contacts.length; i += RECIPIENT_CHUNK) {
      const rows = (await this.deps.db('messages')
        .where({ campaignId })
        .whereIn('recipient', contacts.slice(i, i + RECIPIENT_CHUNK))
        .orderBy('id')
        .select('recipient', 'variables')) as Pick<MessageRow, 'recipient' | 'variables'>[];
      for (const row of rows) {
        if (seen.has(row.recipient)) continue;
        seen.add(row.recipient);
        out.push({ to: row.recipient, variables: messageVariables(row.variables) });
      }
    }
    return out;
  }

  /** What "Send again to…" needs for one group of a campaign's contacts (found by the caller). */
  private async audiencePlan(user: User, id: number, contacts: readonly string[], templateId: number | undefined) {
    const campaign = await this.find(user, id);
    const recipients = await this.recipientsAmong(id, contacts);
    if (recipients.length === 0) throw BadRequestError('nobody_in_audience', messages.campaigns.nobodyInAudience);
    return { campaign, recipients, ...(await this.sendingPlan(user, campaign, templateId)) };
  }

  /** The cost of sending a campaign again to some of its contacts, priced like any send. */
  async sendAgainPreview(user: User, id: number, contacts: readonly string[], templateId?: number): Promise<SendPreview> {
    const { recipients, template } = await this.audiencePlan(user, id, contacts, templateId);
    return this.previewFor(user, template, recipients);
  }

  /**
   * A new campaign for some of a campaign's contacts (those who replied, tapped a button, read
   * without replying), accepted and charged like any send. Unlike resend-failed it may be done
   * more than once: each group is a separate decision of the user. The same template with the
   * same values inside the duplicate window is blocked as any duplicate is, hence the follow-up
   * template; each recipient keeps the values it was first sent with.
   */
  async sendAgain(user: User, id: number, contacts: readonly string[], audienceLabel: string, templateId?: number): Promise<AcceptedCampaign> {
    const { campaign, recipients, template, number } = await this.audiencePlan(user, id, contacts, templateId);
    const result = await this.deps.acceptance.accept({
      user,
      template,
      senderNumberId: number.id,
      name: fillMessage(messages.campaigns.sendAgainName, { name: campaign.name, audience: audienceLabel }),
      source: campaign.source as TCampaign['source'],
      recipients,
      invalidCount: 0,
      inSendDuplicates: 0,
      headerMedia: this.headerMediaOf(campaign),
    });
    if (result.accepted > 0) this.deps.engine.notifyAccepted();
    return result;
  }

  private headerMediaOf(campaign: StoredCampaign) {
    return campaign.headerMediaPath ? { type: campaign.headerMediaType as 'image' | 'video' | 'document', path: campaign.headerMediaPath, name: campaign.headerMediaName } : null;
  }

  private async previewFor(user: User, template: Template, recipients: RecipientRow[]): Promise<SendPreview> {
    const screened = await this.deps.acceptance.screen(user.id, template.id, recipients);
    const quote = await this.deps.pricing.quote(user.id, template.category.toLowerCase() as PriceCategory, screened.billable);
    return {
      recipients: recipients.length,
      billable: screened.billable,
      duplicates: screened.duplicates,
      invalid: 0,
      suppressed: screened.suppressed,
      category: template.category,
      quote,
    };
  }

  /** The cost of sending the failed messages again, priced like any send. */
  async resendPreview(user: User, id: number): Promise<SendPreview> {
    const { recipients, template } = await this.resendPlan(user, id);
    return this.previewFor(user, template, recipients);
  }

  /** A new campaign for the failed recipients, accepted (and charged) like any send. */
  async resendFailed(user: User, id: number): Promise<AcceptedCampaign> {
    const { campaign, recipients, template, number } = await this.resendPlan(user, id);
    const headerMedia = this.headerMediaOf(campaign);
    // Claimed before accepting (0 stands for "in progress"), so two clicks cannot both resend.
    const claimed = await this.deps.db('campaigns').where({ id, userId: user.id }).whereNull('resentCampaignId').update({ resentCampaignId: 0 });
    if (claimed === 0) throw ConflictError('already_resent', messages.campaigns.alreadyResent);
    let result: AcceptedCampaign;
    try {
      result = await this.deps.acceptance.accept({
        user,
        template,
        senderNumberId: number.id,
        name: fillMessage(messages.campaigns.resendName, { name: campaign.name }),
        source: campaign.source as TCampaign['source'],
        recipients,
        invalidCount: 0,
        inSendDuplicates: 0,
        headerMedia,
      });
    } catch (error) {
      await this.deps.db('campaigns').where({ id, resentCampaignId: 0 }).update({ resentCampaignId: null });
      throw error;
    }
    await this.deps.db('campaigns').where({ id }).update({ resentCampaignId: result.campaignId });
    if (result.accepted > 0) this.deps.engine.notifyAccepted();
    return result;
  }

  /**
   * Per Indian calendar day, the last `days` days (today included, oldest first): how many of the
   * user's messages were sent, delivered, read and failed that day, by the time of each event.
   * Messages a cancel stopped are not failures of delivery and are left out.
   */
  async timeline(user: User, days: number): Promise<TTimelinePoint[]> {
    const since = new Date(istDayStart(istDay(this.now())).getTime() - (days - 1) * DAY_MS);
    const createdFloor = new Date(since.getTime() - TIMELINE_LOOKBACK_MS).toISOString();
    const events = [
      ['sent', 'sent_at'],
      ['delivered', 'delivered_at'],
      ['read', 'read_at'],
      ['failed', 'failed_at'],
    ] as const;
    const points = new Map<string, TTimelinePoint>();
    for (let i = 0; i < days; i++) {
      const day = istDay(new Date(since.getTime() + i * DAY_MS));
      points.set(day, { date: day, sent: 0, delivered: 0, read: 0, failed: 0 });
    }
    for (const [key, column] of events) {
      const day = istDaySql(this.deps.db, column);
      const query = this.deps.db('messages')
        .where({ userId: user.id })
        .where('createdAt', '>=', createdFloor)
        .where(column, '>=', since.toISOString())
        .select(this.deps.db.raw(`${day} as day`))
        .count({ n: '*' })
        .groupByRaw(day);
      const rows = (await query) as { day: string; n: number | string }[];
      for (const row of rows) {
        const point = points.get(row.day);
        if (point) point[key] = Number(row.n);
      }
    }
    for (const kept of await this.kept.userEventsByDay(user.id, istDay(since), istDay(this.now()))) {
      const point = points.get(kept.day);
      if (point && (kept.event === 'sent' || kept.event === 'delivered' || kept.event === 'read' || kept.event === 'failed')) point[kept.event] += kept.n;
    }
    return [...points.values()];
  }

  /** Campaign charges and refunds in the ledger since `from`, for one user or all. */
  private async ledgerSince(from: Date, userId?: number): Promise<{ debitUnits: number; refundUnits: number }> {
    const query = this.deps.db('credit_transactions').where('createdAt', '>=', from.toISOString()).whereIn('type', ['CAMPAIGN_DEBIT', 'REFUND_ADD']).groupBy('type').select('type').sum({ units: 'amount' });
    if (userId !== undefined) query.where({ userId });
    const rows = (await query) as { type: string; units: number | string | null }[];
    const sum = (type: string) => Number(rows.find((row) => row.type === type)?.units ?? 0);
    return { debitUnits: -sum('CAMPAIGN_DEBIT'), refundUnits: sum('REFUND_ADD') };
  }

  /**
   * The user dashboard's Account Overview for this calendar month in India: its messages counted
   * as the reports' total counts them (every message, blocked duplicates, opt-outs and cancelled
   * ones included: docs/decisions/2026-12-07-messages-this-month.md), delivery and read rates over
   * those that reached an outcome, spend (charges less refunds) and running or paused campaigns.
   */
  async overview(user: User): Promise<AccountOverview> {
    const monthStart = istMonthStart(this.now());
    const rows = (await this.deps.db('messages')
      .where({ userId: user.id })
      .where('createdAt', '>=', monthStart.toISOString())
      .groupBy('status')
      .select('status')
      .count({ n: '*' })) as { status: string; n: number | string }[];
    // Live rows plus the per-day totals of rows the log cleanup deleted.
    const counts: Record<string, number> = Object.fromEntries(rows.map((row) => [row.status, Number(row.n)]));
    for (const [metric, n] of await this.kept.userMetrics(user.id, istDay(monthStart))) {
      if (!metric.startsWith('status:')) continue;
      const status = metric.slice('status:'.length);
      counts[status] = (counts[status] ?? 0) + n;
    }
    const figures = messageFigures(counts);
    const { debitUnits, refundUnits } = await this.ledgerSince(monthStart, user.id);
    const active = (await this.deps.db('campaigns').where({ userId: user.id }).whereIn('status', ['running', 'paused']).count({ n: '*' }).first()) as { n: number | string } | undefined;
    return {
      messagesThisMonth: figures.total,
      deliveryRate: figures.deliveryRate,
      readRate: figures.readRate,
      spendUnits: debitUnits - refundUnits,
      refundUnits,
      activeCampaigns: Number(active?.n ?? 0),
    };
  }

  /**
   * Usage of every user for the admin dashboard: billable messages accepted today and this month
   * (India), less cancelled ones, from the campaigns table (small) rather than every message, and
   * spend this month from the ledger.
   */
  async platformUsage(): Promise<{ messagesToday: number; messagesThisMonth: number; spendThisMonthUnits: number }> {
    const now = this.now();
    const monthStart = istMonthStart(now);
    const todayStart = istDayStart(istDay(now));
    const row = (await this.deps.db('campaigns')
      .where('createdAt', '>=', monthStart.toISOString())
      .select(
        this.deps.db.raw('coalesce(sum(case when created_at >= ? then billable_count - cancelled_count else 0 end), 0) as today', [todayStart.toISOString()]),
        this.deps.db.raw('coalesce(sum(billable_count - cancelled_count), 0) as month'),
      )
      .first()) as { today: number | string; month: number | string } | undefined;
    const { debitUnits, refundUnits } = await this.ledgerSince(monthStart);
    const [keptToday, keptMonth] = await Promise.all([this.kept.deletedCampaignsBillable(istDay(now)), this.kept.deletedCampaignsBillable(istDay(monthStart))]);
    return { messagesToday: Number(row?.today ?? 0) + keptToday, messagesThisMonth: Number(row?.month ?? 0) + keptMonth, spendThisMonthUnits: debitUnits - refundUnits };
  }
}
