/**
 * Notifications kept per user: the header bell lists them, marks them read and clears
 * them, and `GET /api/notifications/stream` pushes new ones as Server-Sent Events. Every event the
 * product tells users about goes through one method here, called in one line from where it happens.
 *
 * Live delivery: a post on this instance is pushed at once to its open streams; streams held by
 * other instances (PostgreSQL, several servers) pick it up at their next heartbeat, which reads
 * rows newer than the last one sent.
 */
import { EventEmitter } from 'node:events';
import type { Knex } from 'knex';
import { fillMessage, messages } from '@shared/messages';
import type { WalletAfterDebit } from '../wallet/service';
import type { TopUpRefund } from '../payments/service';
import { formatIndianNumber, formatRupees, unitsToRupees } from '@shared/money';
import { NOTIFICATIONS } from '@shared/constants';
import { templateStatusLabel } from '@shared/templates';
import type { TNotification, TNotificationType } from '@shared/schemas/notifications';
import type { Logger } from '../logger';
import { DailyTotalsReader } from '../retention/dailyTotals';

interface NotificationRow {
  id: number | string;
  userId: number;
  type: TNotificationType;
  kind: string;
  title: string;
  message: string;
  readAt: string | Date | null;
  createdAt: string | Date;
  /** The campaign whose outcome the notice tells, rendered live from it when listed. */
  campaignId?: number | string | null;
}

export interface NotificationInput {
  /** One notification per key and user: a repeated post with the same key is dropped. */
  dedupeKey?: string | undefined;
  type: TNotificationType;
  kind: string;
  title: string;
  message: string;
  /** The campaign whose outcome this tells: its text is rendered again from the campaign's counts each time it is read. */
  campaignId?: number | undefined;
}

/** A campaign's outcome as its notice tells it, read when the notice is posted or listed. */
interface CampaignOutcome {
  name: string;
  refundedUnits: number;
  counts: Map<string, number>;
  /** The commonest error of its failed messages, read only for a notice that all of them failed. */
  commonestError?: string | null;
}

/** The kinds of notice that tell a campaign's outcome (see `campaignsSettled`). */
const OUTCOME_KINDS: ReadonlySet<string> = new Set(['campaign_completed', 'campaign_failed']);

function present(row: NotificationRow): TNotification {
  return {
    id: Number(row.id),
    type: row.type,
    kind: row.kind,
    title: row.title,
    message: row.message,
    read: row.readAt !== null,
    createdAt: new Date(row.createdAt).toISOString(),
  };
}

const texts = messages.notifications;

/** A price per message in rupees: to the paisa, or to its four decimals when it has them. */
function pricePerMessage(units: number): string {
  return formatRupees(unitsToRupees(units, 4), units % 100 === 0 ? 2 : 4);
}

/** MARKETING -> Marketing. */
function categoryLabel(category: string): string {
  return category.charAt(0) + category.slice(1).toLowerCase();
}

function countOf(outcome: CampaignOutcome, status: string): number {
  return outcome.counts.get(status) ?? 0;
}

/** None of the campaign's messages went out: it failed rather than completed. */
function allFailed(outcome: CampaignOutcome): boolean {
  return countOf(outcome, 'failed') > 0 && countOf(outcome, 'sent') + countOf(outcome, 'delivered') + countOf(outcome, 'read') === 0;
}

/** A campaign's outcome notice from its counts, as the kind it was posted as. */
function outcomeNotice(kind: 'campaign_completed' | 'campaign_failed', outcome: CampaignOutcome): Omit<NotificationInput, 'dedupeKey' | 'campaignId'> {
  const failed = countOf(outcome, 'failed');
  const refund = formatRupees(unitsToRupees(outcome.refundedUnits, 2));
  if (kind === 'campaign_failed') {
    const reason = fillMessage(texts.campaignAllFailed, { count: formatIndianNumber(failed), error: outcome.commonestError ?? texts.noReasonGiven, refund });
    return { type: 'error', kind, title: texts.campaignFailedTitle, message: fillMessage(texts.campaignFailed, { name: outcome.name, reason }) };
  }
  return {
    type: failed > 0 ? 'warning' : 'success',
    kind,
    title: texts.campaignCompletedTitle,
    message: fillMessage(texts.campaignCompleted, {
      name: outcome.name,
      delivered: formatIndianNumber(countOf(outcome, 'delivered') + countOf(outcome, 'read')),
      read: formatIndianNumber(countOf(outcome, 'read')),
      failed: formatIndianNumber(failed),
      refund,
    }),
  };
}

export class NotificationService {
  private readonly hub = new EventEmitter();

  constructor(private readonly deps: { db: Knex; log: Logger; now?: () => Date }) {
    // One listener per open tab: many tabs are normal, not a leak.
    this.hub.setMaxListeners(0);
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /** Stores a notification for one user and pushes it to their open streams. Never throws: a notice must not break the event it reports. */
  async post(userId: number, input: NotificationInput): Promise<void> {
    try {
      const row: Omit<NotificationRow, 'id'> & { dedupeKey: string | null } = {
        userId,
        dedupeKey: input.dedupeKey ?? null,
        type: input.type,
        kind: input.kind,
        title: input.title.slice(0, 200),
        message: input.message.slice(0, 1000),
        readAt: null,
        createdAt: this.now().toISOString(),
        campaignId: input.campaignId ?? null,
      };
      const inserted = (await this.deps.db('notifications').insert(row).onConflict(['userId', 'dedupeKey']).ignore().returning('id')) as ({ id: number } | number)[];
      const first = inserted[0];
      if (first === undefined) return;
      const id = typeof first === 'number' ? first : Number(first.id);
      this.hub.emit(`user:${userId}`, present({ ...row, id }));
    } catch (error) {
      this.deps.log.warn({ err: error, userId, kind: input.kind }, 'notification not stored');
    }
  }

  /** The same notification to every admin. */
  async postToAdmins(input: NotificationInput): Promise<void> {
    try {
      const admins = (await this.deps.db('users').where({ role: 'admin' }).pluck('id')) as number[];
      await Promise.all(admins.map((id) => this.post(Number(id), input)));
    } catch (error) {
      this.deps.log.warn({ err: error, kind: input.kind }, 'admin notification not stored');
    }
  }

  async list(userId: number, limit: number = NOTIFICATIONS.listLimit): Promise<{ notifications: TNotification[]; unreadCount: number }> {
    const [rows, unread] = await Promise.all([
      this.deps.db('notifications').where({ userId }).orderBy('id', 'desc').limit(limit).select('*') as Promise<NotificationRow[]>,
      this.unreadCount(userId),
    ]);
    return { notifications: (await this.rendered(rows)).map(present), unreadCount: unread };
  }

  async unreadCount(userId: number): Promise<number> {
    const row = (await this.deps.db('notifications').where({ userId }).whereNull('readAt').count({ n: '*' }).first()) as { n: number | string } | undefined;
    return Number(row?.n ?? 0);
  }

  /** Rows newer than `afterId`, oldest first (a stream catching up). */
  async since(userId: number, afterId: number): Promise<TNotification[]> {
    const rows = (await this.deps.db('notifications').where({ userId }).where('id', '>', afterId).orderBy('id', 'asc').limit(NOTIFICATIONS.listLimit).select('*')) as NotificationRow[];
    return (await this.rendered(rows)).map(present);
  }

  async latestId(userId: number): Promise<number> {
    const row = (await this.deps.db('notifications').where({ userId }).max({ id: 'id' }).first()) as { id: number | string | null } | undefined;
    return Number(row?.id ?? 0);
  }

  /** Marks the given notifications (or all when `ids` is absent) read. */
  async markRead(userId: number, ids?: readonly number[]): Promise<number> {
    const query = this.deps.db('notifications').where({ userId }).whereNull('readAt');
    if (ids) query.whereIn('id', ids);
    return query.update({ readAt: this.now().toISOString() });
  }

  /** Deletes one of the user's notifications, or all of them. */
  async clear(userId: number, id?: number): Promise<number> {
    const query = this.deps.db('notifications').where({ userId });
    if (id !== undefined) query.where({ id });
    return query.delete();
  }

  /** Calls `listener` with each notification posted to the user on this instance; returns the unsubscribe. */
  subscribe(userId: number, listener: (notification: TNotification) => void): () => void {
    const event = `user:${userId}`;
    this.hub.on(event, listener);
    return () => this.hub.off(event, listener);
  }

  // ---- The product's events, one method each, so a hook is one line where the event happens. ----

  campaignFailed(userId: number, c: { name: string; reason: string }, dedupeKey?: string): Promise<void> {
    return this.post(userId, { dedupeKey, type: 'error', kind: 'campaign_failed', title: texts.campaignFailedTitle, message: fillMessage(texts.campaignFailed, c) });
  }

  /** A running campaign made no progress for a while: warned once per campaign. */
  campaignStalled(userId: number, c: { id: number; name: string; waiting: number; stalledMs: number }): Promise<void> {
    return this.post(userId, {
      dedupeKey: `campaign:${c.id}:stalled`,
      type: 'warning',
      kind: 'campaign_stalled',
      title: texts.campaignStalledTitle,
      message: fillMessage(texts.campaignStalled, { name: c.name, minutes: formatIndianNumber(Math.floor(c.stalledMs / 60_000)), waiting: formatIndianNumber(c.waiting) }),
    });
  }

  /** Users whose low-balance check is running, and whether spends came meanwhile. */
  private readonly lowBalanceRuns = new Map<number, { again: boolean }>();

  /**
   * After a spend on a hot path (the public send API): the low-balance check without waiting for
   * it, one at a time per user, and once more when spends came while it ran, so a burst of sends
   * costs a few balance reads, not one per request, and the last spend is always checked.
   */
  lowBalanceAfterSpend(userId: number, walletAfter?: WalletAfterDebit): void {
    if (walletAfter) {
      // The spend's own write answered what it left: at or above the threshold, there is nothing to read.
      const threshold = walletAfter.lowBalanceThresholdUnits ?? NOTIFICATIONS.lowBalanceDefaultUnits;
      if (threshold <= 0 || walletAfter.balanceUnits >= threshold) return;
    }
    const running = this.lowBalanceRuns.get(userId);
    if (running) {
      running.again = true;
      return;
    }
    const run = { again: false };
    this.lowBalanceRuns.set(userId, run);
    void (async () => {
      try {
        do {
          run.again = false;
          await this.lowBalanceCheck(userId);
        } while (run.again);
      } finally {
        this.lowBalanceRuns.delete(userId);
      }
    })();
  }

  /** Told each low-balance alert as it is posted (the `wallet.low_balance` webhook event). */
  onLowBalance: ((userId: number, balance: { balance: number; threshold: number }) => void) | null = null;

  /** Low balance: at most once a day per user, and only below the user's own threshold. */
  async lowBalanceCheck(userId: number): Promise<void> {
    try {
      const user = (await this.deps.db('users').where({ id: userId }).first('creditBalance', 'lowBalanceThresholdUnits', 'lowBalanceNotifiedAt')) as
        | { creditBalance: number | string; lowBalanceThresholdUnits: number | string | null; lowBalanceNotifiedAt: string | Date | null }
        | undefined;
      if (!user) return;
      const threshold = user.lowBalanceThresholdUnits === null ? NOTIFICATIONS.lowBalanceDefaultUnits : Number(user.lowBalanceThresholdUnits);
      const balance = Number(user.creditBalance);
      if (threshold <= 0 || balance >= threshold) return;
      const now = this.now();
      const dayAgo = new Date(now.getTime() - 86_400_000).toISOString();
      // Claim the day's alert with a conditional update, so concurrent sends alert once.
      const claimed = await this.deps
        .db('users')
        .where({ id: userId })
        .where((q) => q.whereNull('lowBalanceNotifiedAt').orWhere('lowBalanceNotifiedAt', '<', dayAgo))
        .update({ lowBalanceNotifiedAt: now.toISOString() });
      if (claimed === 0) return;
      this.onLowBalance?.(userId, { balance: unitsToRupees(balance, 2), threshold: unitsToRupees(threshold, 2) });
      await this.post(userId, {
        type: 'warning',
        kind: 'low_balance',
        title: texts.lowBalanceTitle,
        message: fillMessage(texts.lowBalance, { balance: formatRupees(unitsToRupees(balance, 2)), threshold: formatRupees(unitsToRupees(threshold, 2)) }),
      });
    } catch (error) {
      this.deps.log.warn({ err: error, userId }, 'low balance check failed');
    }
  }

  async lowBalanceThreshold(userId: number): Promise<number> {
    const row = (await this.deps.db('users').where({ id: userId }).first('lowBalanceThresholdUnits')) as { lowBalanceThresholdUnits: number | string | null } | undefined;
    return row?.lowBalanceThresholdUnits === null || row?.lowBalanceThresholdUnits === undefined ? NOTIFICATIONS.lowBalanceDefaultUnits : Number(row.lowBalanceThresholdUnits);
  }

  async setLowBalanceThreshold(userId: number, units: number): Promise<void> {
    await this.deps.db('users').where({ id: userId }).update({ lowBalanceThresholdUnits: units, lowBalanceNotifiedAt: null });
  }

  /** A top-up order was credited to the user's wallet. */
  async paymentCredited(userId: number, orderId: string): Promise<void> {
    const payment = (await this.deps.db('payments').where({ orderId, userId }).first('creditUnits')) as { creditUnits: number | string } | undefined;
    if (!payment) return;
    await this.post(userId, {
      dedupeKey: `payment:${orderId}:credited`,
      type: 'success',
      kind: 'payment_credited',
      title: texts.paymentCreditedTitle,
      message: fillMessage(texts.paymentCredited, { amount: formatRupees(unitsToRupees(Number(payment.creditUnits), 2)) }),
    });
  }

  /** A payment attempt failed: told once per attempt (Razorpay may deliver its webhook again). */
  paymentFailed(userId: number, failure: { orderId: string; paymentId: string; reason: string }): Promise<void> {
    return this.post(userId, {
      dedupeKey: `payment:${failure.orderId}:failed:${failure.paymentId}`.slice(0, 80),
      type: 'error',
      kind: 'payment_failed',
      title: texts.paymentFailedTitle,
      message: fillMessage(texts.paymentFailed, { reason: failure.reason }),
    });
  }

  /** A gateway refund of a top-up: its owner is told; a shortfall (credits already spent) goes to the admins. */
  async topUpRefunded(refund: TopUpRefund): Promise<void> {
    const amount = formatRupees(refund.amountPaise / 100);
    await this.post(refund.userId, {
      dedupeKey: `refund:${refund.refundId}`.slice(0, 80),
      type: 'info',
      kind: 'topup_refunded',
      title: texts.refundedTitle,
      message: fillMessage(texts.refunded, { amount, credits: formatRupees(unitsToRupees(refund.debitedUnits)) }),
    });
    if (refund.shortfallUnits <= 0) return;
    const owner = (await this.deps.db('users').where({ id: refund.userId }).first('username')) as { username: string } | undefined;
    await this.postToAdmins({
      dedupeKey: `refund:${refund.refundId}:shortfall`.slice(0, 80),
      type: 'error',
      kind: 'refund_shortfall',
      title: texts.refundShortfallTitle,
      message: fillMessage(texts.refundShortfall, {
        amount,
        username: owner?.username ?? String(refund.userId),
        taken: formatRupees(unitsToRupees(refund.debitedUnits)),
        credits: formatRupees(unitsToRupees(refund.creditUnits)),
        shortfall: formatRupees(unitsToRupees(refund.shortfallUnits)),
      }),
    });
  }

  templateReviewed(userId: number, t: { name: string; status: 'APPROVED' | 'REJECTED'; reason?: string | null }): Promise<void> {
    return t.status === 'APPROVED'
      ? this.post(userId, { type: 'success', kind: 'template_approved', title: texts.templateApprovedTitle, message: fillMessage(texts.templateApproved, { name: t.name }) })
      : this.post(userId, {
          type: 'error',
          kind: 'template_rejected',
          title: texts.templateRejectedTitle,
          message: fillMessage(texts.templateRejected, { name: t.name, reason: t.reason || texts.noReasonGiven }),
        });
  }

  apiKeyCreated(userId: number, prefix: string): Promise<void> {
    return this.post(userId, { type: 'info', kind: 'api_key_created', title: texts.apiKeyCreatedTitle, message: fillMessage(texts.apiKeyCreated, { prefix }) });
  }

  /** After a key was revoked (its row stays, so its prefix can be named). */
  async apiKeyDeleted(userId: number, keyId: number): Promise<void> {
    const key = (await this.deps.db('api_keys').where({ id: keyId, userId }).first('prefix')) as { prefix: string } | undefined;
    await this.post(userId, { type: 'warning', kind: 'api_key_deleted', title: texts.apiKeyDeletedTitle, message: fillMessage(texts.apiKeyDeleted, { prefix: key?.prefix ?? '' }) });
  }

  /**
   * Meta moved a template (templateHolds.ts): the owner hears what happened to the campaigns using
   * it. Told once per move (its time is in the key). Moves of a template still in review are the
   * review's own notices, not these.
   */
  async templateStatusChanged(
    userId: number,
    notice: {
      templateId: number;
      name: string;
      status: string;
      at: Date;
      outcome: { action: 'paused' | 'resumed' | 'failed' | null; campaignIds: readonly number[]; messages: number; refundedUnits: number };
      byAdmin?: boolean;
      reason?: string | null;
    },
  ): Promise<void> {
    const { outcome } = notice;
    const held = messages.templateHolds;
    const values = { name: notice.name, status: templateStatusLabel(notice.status), campaigns: outcome.campaignIds.length, messages: formatIndianNumber(outcome.messages) };
    const dedupeKey = `template:${notice.templateId}:${notice.status}:${notice.at.getTime()}`;
    if (notice.byAdmin) {
      const refund = formatRupees(unitsToRupees(outcome.refundedUnits, 2));
      await this.post(userId, { dedupeKey, type: 'error', kind: 'template_disabled', title: held.disabledByAdminTitle, message: fillMessage(held.disabledByAdmin, { ...values, reason: notice.reason ?? '', refund }) });
    } else if (outcome.action === 'paused') {
      await this.post(userId, { dedupeKey, type: 'warning', kind: 'template_paused', title: held.pausedTitle, message: fillMessage(held.paused, values) });
    } else if (outcome.action === 'failed') {
      const refund = formatRupees(unitsToRupees(outcome.refundedUnits, 2));
      await this.post(userId, { dedupeKey, type: 'error', kind: 'template_disabled', title: held.endedTitle, message: fillMessage(held.ended, { ...values, refund }) });
    } else if (outcome.action === 'resumed') {
      await this.post(userId, { dedupeKey, type: 'success', kind: 'template_reinstated', title: held.reinstatedTitle, message: fillMessage(held.reinstated, values) });
    }
  }

  /** Meta changed a template's category: the owner hears the old and new price per message. */
  async templateCategoryChanged(userId: number, notice: { templateId: number; name: string; from: string; to: string; oldUnits: number; newUnits: number; at: Date }): Promise<void> {
    await this.post(userId, {
      dedupeKey: `template:${notice.templateId}:category:${notice.to}:${notice.at.getTime()}`,
      type: 'warning',
      kind: 'template_category_changed',
      title: messages.templateHolds.categoryTitle,
      message: fillMessage(messages.templateHolds.category, {
        name: notice.name,
        from: categoryLabel(notice.from),
        to: categoryLabel(notice.to),
        oldPrice: pricePerMessage(notice.oldUnits),
        newPrice: pricePerMessage(notice.newUnits),
      }),
    });
  }

  /** A template moved to PENDING: tell the admins (after create-and-submit, submit or resubmit). */
  async templateSubmitted(template: { status: string; name: string; userId: number }): Promise<void> {
    if (template.status !== 'PENDING') return;
    const owner = (await this.deps.db('users').where({ id: template.userId }).first('username')) as { username: string } | undefined;
    await this.templateAwaitingReview({ name: template.name, username: owner?.username ?? '' });
  }

  /** Told about a failed payment webhook: admins hear of a signature that did not verify. */
  async paymentWebhookFailed(error: unknown): Promise<void> {
    const code = (error as { code?: unknown } | null)?.code;
    if (code === 'webhook_signature_invalid') await this.paymentWebhookRejected(error instanceof Error ? error.message : String(code));
  }

  /**
   * Campaigns that may just have completed: the owner of each that did is told its outcome once
   * (the dedupe key, shared by both outcomes, makes a repeated call harmless). A campaign none of
   * whose messages went out (the template was deleted, no provider can send for its number, the
   * provider refused every one) ended failed, and is told so with the commonest error.
   *
   * A campaign completes when its last message leaves the queue; its delivery reports, later
   * failures and their refunds arrive afterwards. So the notice keeps the campaign's id and its
   * text is rendered again from the campaign's counts each time it is listed (`rendered`): what it
   * says is true when it is read, not when the last message left.
   */
  async campaignsSettled(campaignIds: readonly number[]): Promise<void> {
    try {
      // The public API's day campaign (one per key, template and day) completes whenever its sends
      // catch up, many times a day: it is not announced.
      const campaigns = (await this.deps.db('campaigns').whereIn('id', campaignIds).where({ status: 'completed' }).whereNull('apiKeyId').select('id', 'userId')) as {
        id: number | string;
        userId: number | string;
      }[];
      if (campaigns.length === 0) return;
      const outcomes = await this.campaignOutcomes(campaigns.map((campaign) => Number(campaign.id)), 'all');
      for (const campaign of campaigns) {
        const id = Number(campaign.id);
        const outcome = outcomes.get(id);
        if (!outcome) continue;
        const kind = allFailed(outcome) ? 'campaign_failed' : 'campaign_completed';
        await this.post(Number(campaign.userId), { dedupeKey: `campaign:${id}:completed`, campaignId: id, ...outcomeNotice(kind, outcome) });
      }
    } catch (error) {
      this.deps.log.warn({ err: error, campaignIds }, 'campaign notifications failed');
    }
  }

  /**
   * Notices of campaign outcomes with their texts rendered from the campaigns' current counts
   * (one grouped read for all of them); a campaign the log cleanup deleted keeps its last text.
   * A failure to read leaves the stored texts: the list must still answer.
   */
  private async rendered(rows: NotificationRow[]): Promise<NotificationRow[]> {
    const live = rows.filter((row) => row.campaignId !== null && row.campaignId !== undefined && OUTCOME_KINDS.has(row.kind));
    if (live.length === 0) return rows;
    try {
      const failedKinds = new Set(live.filter((row) => row.kind === 'campaign_failed').map((row) => Number(row.campaignId)));
      const outcomes = await this.campaignOutcomes([...new Set(live.map((row) => Number(row.campaignId)))], failedKinds);
      return rows.map((row) => {
        const outcome = row.campaignId === null || row.campaignId === undefined ? undefined : outcomes.get(Number(row.campaignId));
        if (!outcome || !OUTCOME_KINDS.has(row.kind)) return row;
        const notice = outcomeNotice(row.kind as 'campaign_completed' | 'campaign_failed', outcome);
        return { ...row, type: notice.type, message: notice.message };
      });
    } catch (error) {
      this.deps.log.warn({ err: error }, 'campaign notices not rendered live');
      return rows;
    }
  }

  /**
   * The campaigns' names, refunds and message counts by status as they stand (the per-day totals
   * the log cleanup kept of deleted messages included), and the commonest error of the failed
   * messages of those in `errorsFor` ('all': of those whose every message failed).
   */
  private async campaignOutcomes(ids: readonly number[], errorsFor: ReadonlySet<number> | 'all'): Promise<Map<number, CampaignOutcome>> {
    const db = this.deps.db;
    const [campaigns, rows, kept] = await Promise.all([
      db('campaigns').whereIn('id', ids).select('id', 'name', 'refundedUnits') as Promise<{ id: number | string; name: string; refundedUnits: number | string | null }[]>,
      db('messages').whereIn('campaignId', ids).groupBy('campaignId', 'status').select('campaignId', 'status').count({ n: '*' }) as Promise<{ campaignId: number | string; status: string; n: number | string }[]>,
      new DailyTotalsReader(db).campaignStatusCounts(ids),
    ]);
    const outcomes = new Map<number, CampaignOutcome>();
    for (const campaign of campaigns) {
      const id = Number(campaign.id);
      outcomes.set(id, { name: campaign.name, refundedUnits: Number(campaign.refundedUnits ?? 0), counts: new Map(kept.get(id) ?? []) });
    }
    for (const row of rows) {
      const counts = outcomes.get(Number(row.campaignId))?.counts;
      counts?.set(row.status, (counts.get(row.status) ?? 0) + Number(row.n));
    }
    for (const [id, outcome] of outcomes) {
      if (errorsFor === 'all' ? !allFailed(outcome) : !errorsFor.has(id)) continue;
      const commonest = (await db('messages')
        .where({ campaignId: id, status: 'failed' })
        .groupBy('errorMessage')
        .select('errorMessage')
        .count({ n: '*' })
        .orderBy('n', 'desc')
        .first()) as { errorMessage: string | null } | undefined;
      outcome.commonestError = commonest?.errorMessage ?? null;
    }
    return outcomes;
  }

  /** A sign-in from a device (desktop app or browser) this user has not signed in from before. */
  newDeviceSignIn(userId: number, device: string): Promise<void> {
    return this.post(userId, { type: 'warning', kind: 'new_device', title: texts.newDeviceTitle, message: fillMessage(texts.newDevice, { device }) });
  }

  templateAwaitingReview(t: { name: string; username: string }): Promise<void> {
    return this.postToAdmins({ type: 'info', kind: 'template_review', title: texts.templateReviewTitle, message: fillMessage(texts.templateReview, t) });
  }

  paymentWebhookRejected(reason: string): Promise<void> {
    return this.postToAdmins({ type: 'error', kind: 'payment_webhook_rejected', title: texts.webhookRejectedTitle, message: fillMessage(texts.webhookRejected, { reason }) });
  }

  cleanupFinished(run: { totalDeleted: number; messagesDeleted: number; campaignsDeleted: number } | { error: string }): Promise<void> {
    if ('error' in run) return this.postToAdmins({ type: 'error', kind: 'log_cleanup', title: texts.cleanupTitle, message: fillMessage(texts.cleanupFailed, { error: run.error }) });
    return this.postToAdmins({
      type: 'info',
      kind: 'log_cleanup',
      title: texts.cleanupTitle,
      message: fillMessage(texts.cleanupDone, { total: formatIndianNumber(run.totalDeleted), messages: formatIndianNumber(run.messagesDeleted), campaigns: formatIndianNumber(run.campaignsDeleted) }),
    });
  }
}
