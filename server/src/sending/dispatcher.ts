/**
 * Dispatch: sends claimed messages through their sender number's provider, each number held to
 * its messages-per-second limit, and records the results of a batch together.
 *
 * Fencing: a claim writes a fresh token on its rows. While the batch is in flight its
 * lease is renewed on a timer, and right before each send the worker *hands* the message over: a
 * conditional update that succeeds only while the row still carries the worker's token, is
 * still `sending`, and its campaign is running (handoffs of concurrent sends share one statement).
 * Pause and cancel take unhanded rows from workers in their own transaction, and a lapsed lease
 * lets another worker claim only unhanded rows, so a worker that stalled, lost its lease or whose
 * pg-boss job was retried elsewhere can no longer send. Result writes are conditional on the token.
 *
 * Crash window: a handed message may have reached the provider. If its worker dies (or stalls past
 * its lease) before the answer is stored, the message goes to `unknown`, not back to the queue: a
 * status webhook carrying our reference (`biz_opaque_callback_data`) settles it, and only after
 * DISPATCH_UNKNOWN_SETTLE_SECONDS without one is it sent again. A double send therefore needs the
 * provider to have taken the message and no status of it to reach us within that window; the
 * messages exposed are at most those handed over and not yet recorded (one batch per worker).
 */
import type { Knex } from 'knex';
import type { TTemplateComponent } from '@shared/types';
import type { Logger } from '../logger';
import { OutageLog } from '../db/outage';
import { templateSendRequest, type HeaderMedia, type TemplateShape } from './messageRequest';
import { type MessageOutcomes, type SendFailure, type SendRetry, type SendSuccess, type SendUnknown } from './messageOutcomes';
import type { ProviderRegistry } from './providerRegistry';
import type { SenderNumber } from './senderNumbers';
import { LeaseKeeper } from './leaseKeeper';
import { Handoff } from './handoff';
import { sendReference, type ClaimedMessage } from './claims';
import type { DispatchStore } from './dispatchStore/store';
import { TokenBucket } from './tokenBucket';
import { SendWindow, type SendOutcome } from './sendWindow';
import { ENDED_TEMPLATE_STATUSES, HELD_TEMPLATE_STATUSES } from '../templates/templateEvents';
import { metaErrorHandling, type RetryScope } from './providers/metaErrors';
import type { MetaErrorFields, SendResult } from './providers/types';
import type { Enqueuer } from './dispatchJobs';

/** Meta's error fields of a failed answer, as the message keeps them. */
function metaFieldsOf(result: Extract<SendResult, { ok: false }>): MetaErrorFields {
  const fields: MetaErrorFields = {};
  if (result.subcode !== undefined) fields.subcode = result.subcode;
  if (result.details !== undefined) fields.details = result.details;
  if (result.isTransient !== undefined) fields.isTransient = result.isTransient;
  if (result.fbtraceId !== undefined) fields.fbtraceId = result.fbtraceId;
  return fields;
}

interface CampaignContext {
  status: string;
  number: SenderNumber;
  template: TemplateShape | null;
  /** Set when Meta holds or ended the campaign's template: nothing of it is sent (templateHolds.ts). */
  templateOutOfUse: number | null;
  /** The campaign's template (null when it was deleted). */
  templateId: number | null;
  /** The sender number is stopped (senderHealth.ts): nothing of it is sent until it is resumed. */
  senderStopped: boolean;
  headerMedia: HeaderMedia | null;
  loadedAt: number;
}

export interface DispatchSettings {
  batchSize: number;
  workers: number;
  concurrency: number;
  maxAttempts: number;
  leaseSeconds: number;
  unknownSettleSeconds: number;
  /** How long a send waits for the provider's answer (DISPATCH_SEND_TIMEOUT_SECONDS). */
  sendTimeoutSeconds: number;
}

/** Code recorded when the campaign's template was deleted after acceptance. */
export const TEMPLATE_GONE_CODE = -3;
/** Code recorded when no provider can send for the number (e.g. the simulator is off). */
export const NO_PROVIDER_CODE = -4;

const CONTEXT_TTL_MS = 5_000;
/**
 * Answers are written a moment after they arrive, together with those arriving meanwhile, not at
 * the end of the batch: a pause or cancel waits for handed sends to be recorded, and live counts move.
 */
const RESULT_FLUSH_MS = 50;
const THROTTLE_PAUSE_MS = 200;
/** Sends run just under a number's limit, so clock drift between us and the provider rarely trips it. */
const RATE_MARGIN = 0.99;
const MAX_BACKOFF_MS = 60_000;
/** 131048 (spam rate limit): the number sends nothing for this long before trying again. */
const NUMBER_COOLDOWN_MS = 5_000;
/** 80007, 4, 131057 (the business account's rate or maintenance): every number of the owner waits. */
const ACCOUNT_COOLDOWN_MS = 5_000;
/** 131056: Meta lets a business send a recipient about one message every 6 seconds. */
const PAIR_RETRY_MS = 6_000;
/**
 * A number is busy on this instance while its batches here hold at least this much of its sending
 * time: more lanes on it would only wait on its bucket while other numbers' messages wait for a lane.
 */
const BUSY_AHEAD_MS = 150;
/** Held messages of a campaign in no known state look again after this. */
const HOLD_MS = 30_000;
/** A paused campaign's held messages wait this long; resuming makes them due at once. */
export const PAUSED_HOLD_MS = 5 * 60_000;

export function retryDelayMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.8 + random() * 0.4));
}

export class MessageDispatcher {
  /**
   * Told a template Meta holds or ended whose campaign was still running (accepted in the instant
   * before the template moved, or moved by something other than Meta's webhook), so that the
   * campaign follows the template (templateHolds.ts). Must not throw or wait.
   */
  onTemplateOutOfUse: ((templateId: number) => void) | null = null;
  /**
   * Told a sender number Meta refused to send for at all (the error table's `stop_sender`: token,
   * policy block, locked account, payment, not registered, permissions), so that the number stops
   * and its campaigns pause (senderHealth.ts). Called at the first such answer. Must not throw or wait.
   */
  onSenderStopped: ((numberId: number, error: { code: number; title: string; details?: string }) => void) | null = null;
  /**
   * Told a template Meta refused a send for (132001, 132015, 132016), with the status it moves to,
   * so that the template and its campaigns follow (templateHolds.ts). Must not throw or wait.
   */
  onTemplateRefused: ((templateId: number, status: 'PAUSED' | 'DISABLED') => void) | null = null;
  /**
   * Numbers this instance saw stopped: none of their sends is handed over from then on, also those
   * of a batch under way, before the campaigns' pause has committed.
   */
  private readonly stoppedNumbers = new Set<number>();
  /** The owner of each number with a bucket here (an account's rate pauses all its numbers). */
  private readonly ownerOfNumber = new Map<number, number>();
  private readonly buckets = new Map<number, TokenBucket>();
  private readonly windows = new Map<number, SendWindow>();
  /** Messages of this instance's batches not yet sent (or given up on), by sender number. */
  private readonly pendingByNumber = new Map<number, number>();
  private readonly contexts = new Map<number, CampaignContext>();
  /** Messages of each campaign in the batches this instance is sending now. */
  private readonly campaignsInFlight = new Map<number, number>();
  /** Loads in flight, so concurrent sends of one campaign share one query when the cache lapses. */
  private readonly loading = new Map<number, Promise<CampaignContext | null>>();
  private readonly handoff: Handoff;
  private readonly leases: LeaseKeeper;

  constructor(
    private readonly deps: {
      db: Knex;
      /** How row locks and the handoff's fence run on this database (chosen in container.ts). */
      store: DispatchStore;
      outcomes: MessageOutcomes;
      /** Held messages need a job to be seen again on PostgreSQL (SQLite's lanes find them in the table). */
      jobs: Pick<Enqueuer, 'hold'>;
      providers: Pick<ProviderRegistry, 'prepare' | 'providerFor'>;
      log: Logger;
      settings: DispatchSettings;
      /** Public link of a stored campaign header file (the provider fetches it). */
      mediaUrl: (path: string) => string;
    },
  ) {
    this.handoff = new Handoff(deps.db, deps.store, deps.settings.leaseSeconds);
    const renewalFailures = new OutageLog(deps.log, 'renewing dispatch leases');
    this.leases = new LeaseKeeper(
      (batches, leaseUntil) => deps.store.renewLeases(deps.db, batches, leaseUntil),
      deps.settings.leaseSeconds,
      (error) => void renewalFailures.failed(error),
      undefined,
      () => renewalFailures.recovered(),
    );
  }

  get settings(): DispatchSettings {
    return this.deps.settings;
  }

  private bucketFor(number: SenderNumber): TokenBucket {
    let bucket = this.buckets.get(number.id);
    if (!bucket) {
      bucket = new TokenBucket(number.messagesPerSecond * RATE_MARGIN);
      this.buckets.set(number.id, bucket);
      this.ownerOfNumber.set(number.id, number.userId);
    } else bucket.setRate(number.messagesPerSecond * RATE_MARGIN);
    return bucket;
  }

  /**
   * The rate this instance holds the number to (its `messages_per_second`, set by its throughput
   * level at Meta, less a margin); null before its first send here.
   */
  sendRate(senderNumberId: number): number | null {
    return this.buckets.get(senderNumberId)?.rate ?? null;
  }

  /** Sends the number may have in flight on this instance now; null before its first send here. */
  sendWindowSize(senderNumberId: number): number | null {
    return this.windows.get(senderNumberId)?.size ?? null;
  }

  /**
   * Numbers whose batches on this instance already hold BUSY_AHEAD_MS or more of their sending
   * time. The queues give a lane another number's work instead: without this every lane took the
   * oldest messages, all of one number, and four numbers went out one after another at one rate.
   */
  busyNumbers(): ReadonlySet<number> {
    const busy = new Set<number>();
    for (const [numberId, pending] of this.pendingByNumber) {
      const rate = this.buckets.get(numberId)?.rate;
      if (rate !== undefined && pending >= Math.max(1, (rate * BUSY_AHEAD_MS) / 1000)) busy.add(numberId);
    }
    return busy;
  }

  /** The sender number of a campaign this instance has sent for lately, or null. */
  numberOfCampaign(campaignId: number): number | null {
    return this.contexts.get(campaignId)?.number.id ?? null;
  }

  private countPending(numberId: number, change: number): void {
    const pending = (this.pendingByNumber.get(numberId) ?? 0) + change;
    if (pending > 0) this.pendingByNumber.set(numberId, pending);
    else this.pendingByNumber.delete(numberId);
  }

  private windowFor(number: SenderNumber): SendWindow {
    let window = this.windows.get(number.id);
    if (!window) {
      const { workers, concurrency } = this.deps.settings;
      window = new SendWindow(workers * concurrency, (size, max) => {
        if (size < max) this.deps.log.warn({ senderNumberId: number.id, sendsInFlight: size, max }, 'provider left sends unanswered: fewer sends in flight for this number');
        else this.deps.log.info({ senderNumberId: number.id, sendsInFlight: size }, 'provider answers again: sends in flight back to the full window');
      });
      this.windows.set(number.id, window);
    }
    return window;
  }

  private async context(campaignId: number): Promise<CampaignContext | null> {
    const hit = this.contexts.get(campaignId);
    if (hit && Date.now() - hit.loadedAt < CONTEXT_TTL_MS) return hit;
    const inFlight = this.loading.get(campaignId);
    if (inFlight) return inFlight;
    const pending: Promise<CampaignContext | null> = this.loadContext(campaignId).then(
      (context) => {
        // A load that forgetCampaign() overtook may have read the state from before the change.
        if (this.loading.get(campaignId) !== pending) return context;
        this.loading.delete(campaignId);
        if (context) {
          this.contexts.set(campaignId, context);
          if (this.contexts.size > 5_000) this.contexts.delete(this.contexts.keys().next().value as number);
        }
        return context;
      },
      (error: unknown) => {
        if (this.loading.get(campaignId) === pending) this.loading.delete(campaignId);
        throw error;
      },
    );
    this.loading.set(campaignId, pending);
    return pending;
  }

  private async loadContext(campaignId: number): Promise<CampaignContext | null> {
    const row = (await this.deps.db('campaigns as c')
      .join('whatsapp_numbers as n', 'n.id', 'c.senderNumberId')
      .leftJoin('templates as t', 't.id', 'c.templateId')
      .where('c.id', campaignId)
      .first(
        'c.status',
        'c.templateName',
        'c.templateLanguage',
        'c.category',
        'c.headerMediaType',
        'c.headerMediaPath',
        'c.headerMediaName',
        't.id as templateId',
        't.components',
        't.status as templateStatus',
        'n.id as numberId',
        'n.userId as numberUserId',
        'n.provider',
        'n.phoneNumberId',
        'n.displayNumber',
        'n.label',
        'n.messagesPerSecond',
        'n.isSandbox',
        'n.isActive',
        'n.sendingStoppedAt',
      )) as Record<string, unknown> | undefined;
    if (!row) return null;
    const components = row.templateId ? (typeof row.components === 'string' ? (JSON.parse(row.components) as TTemplateComponent[]) : (row.components as TTemplateComponent[])) : null;
    const context: CampaignContext = {
      status: String(row.status),
      number: {
        id: Number(row.numberId),
        userId: Number(row.numberUserId),
        provider: row.provider as SenderNumber['provider'],
        phoneNumberId: String(row.phoneNumberId),
        displayNumber: String(row.displayNumber),
        label: String(row.label),
        messagesPerSecond: Number(row.messagesPerSecond),
        isSandbox: Boolean(row.isSandbox),
        isActive: Boolean(row.isActive),
      },
      template: components ? { name: String(row.templateName), language: String(row.templateLanguage), category: String(row.category), components } : null,
      templateId: row.templateId ? Number(row.templateId) : null,
      senderStopped: row.sendingStoppedAt !== null && row.sendingStoppedAt !== undefined,
      templateOutOfUse: row.templateId && (HELD_TEMPLATE_STATUSES.has(String(row.templateStatus)) || ENDED_TEMPLATE_STATUSES.has(String(row.templateStatus))) ? Number(row.templateId) : null,
      headerMedia: row.headerMediaPath
        ? { type: row.headerMediaType as HeaderMedia['type'], link: this.deps.mediaUrl(String(row.headerMediaPath)), filename: row.headerMediaName ? String(row.headerMediaName) : null }
        : null,
      loadedAt: Date.now(),
    };
    return context;
  }

  /** Sends one claimed batch and records every result; never throws for a provider's answer. */
  async dispatch(claimed: readonly ClaimedMessage[]): Promise<{ sent: number; retried: number; failed: number; held: number; unknown: number }> {
    const totals = { sent: 0, retried: 0, failed: 0, unknown: 0 };
    let sent: SendSuccess[] = [];
    let retry: SendRetry[] = [];
    let failed: SendFailure[] = [];
    let unknown: SendUnknown[] = [];
    const held: ClaimedMessage[] = [];
    /** Campaigns still running whose template Meta holds or ended, and that template. */
    const outOfUse = new Map<number, number>();
    /** Campaigns still running whose sender number is stopped. */
    const senderHeld = new Set<number>();
    if (claimed.length === 0) return { ...totals, held: 0 };
    const { settings } = this.deps;
    let writing: Promise<void> | null = null;
    let writeError: unknown = null;
    const writeResults = async () => {
      while (sent.length + retry.length + failed.length + unknown.length > 0) {
        const results = { sent, retry, failed, unknown };
        sent = [];
        retry = [];
        failed = [];
        unknown = [];
        totals.sent += results.sent.length;
        totals.retried += results.retry.length;
        totals.failed += results.failed.length;
        totals.unknown += results.unknown.length;
        await this.deps.outcomes.recordSendResults(results, { campaignOf: (id) => campaignOf.get(id), checkCompletion: false });
      }
    };
    const flush: { now: (() => void) | null } = { now: null };
    const scheduleWrite = () => {
      writing ??= new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, RESULT_FLUSH_MS);
        flush.now = () => {
          clearTimeout(timer);
          resolve();
        };
      })
        .then(() => {
          flush.now = null;
          return writeResults();
        })
        .catch((error: unknown) => {
          writeError ??= error;
        })
        .finally(() => {
          writing = null;
        });
    };
    // The lease outlives the batch however slow the provider is, as long as this process runs.
    const byToken = new Map<string, number[]>();
    for (const message of claimed) appendTo(byToken, message.claimToken, message.id);
    const release = this.leases.keep([...byToken].map(([claimToken, ids]) => ({ claimToken, ids })));
    const campaignOf = new Map(claimed.map((message) => [message.id, message.campaignId]));
    const campaignsHeld = this.holdCampaigns(claimed);
    try {
      const contexts = new Map<number, CampaignContext | null>();
      for (const message of claimed) if (!contexts.has(message.campaignId)) contexts.set(message.campaignId, await this.context(message.campaignId));
      await this.deps.providers.prepare([...contexts.values()].flatMap((c) => (c ? [c.number] : [])));

      // Counted from the claim to each message's end, so the queues see the number busy at once.
      for (const message of claimed) {
        const number = contexts.get(message.campaignId)?.number;
        if (number) {
          this.bucketFor(number);
          this.countPending(number.id, 1);
        }
      }
      const work = claimed.map((message) => async () => {
        const numberId = contexts.get(message.campaignId)?.number.id;
        try {
          await send(message);
        } finally {
          if (numberId !== undefined) this.countPending(numberId, -1);
        }
      });
      const send = async (message: ClaimedMessage): Promise<void> => {
        const context = contexts.get(message.campaignId) ?? null;
        const { claimToken } = message;
        if (!context || context.status !== 'running') {
          held.push(message);
          return;
        }
        if (context.templateOutOfUse !== null) {
          held.push(message);
          outOfUse.set(message.campaignId, context.templateOutOfUse);
          return;
        }
        if (context.senderStopped || this.stoppedNumbers.has(context.number.id)) {
          held.push(message);
          senderHeld.add(message.campaignId);
          return;
        }
        if (!context.template) {
          failed.push({ id: message.id, claimToken, code: TEMPLATE_GONE_CODE, title: 'The template was deleted before this message was sent' });
          scheduleWrite();
          return;
        }
        const provider = this.deps.providers.providerFor(context.number);
        if (!provider) {
          failed.push({ id: message.id, claimToken, code: NO_PROVIDER_CODE, title: 'No WhatsApp provider can send for this number' });
          scheduleWrite();
          return;
        }
        const bucket = this.bucketFor(context.number);
        await bucket.take();
        const window = this.windowFor(context.number);
        const startedAt = await window.acquire();
        let outcome: SendOutcome = 'not-sent';
        let result: Awaited<ReturnType<typeof provider.sendTemplate>>;
        try {
          // A stop seen while this send waited for its turn: it is not handed over.
          if (this.stoppedNumbers.has(context.number.id) || context.templateOutOfUse !== null) {
            held.push(message);
            if (context.templateOutOfUse !== null) outOfUse.set(message.campaignId, context.templateOutOfUse);
            else senderHeld.add(message.campaignId);
            return;
          }
          // The fence: only a message still ours, of a campaign still running, goes out.
          if (!(await this.handoff.handOver(message.id, claimToken))) {
            held.push(message);
            return;
          }
          const values = message.variables ? (JSON.parse(message.variables) as Record<string, string>) : {};
          const sendStartedAt = performance.now();
          result = await provider.sendTemplate(
            templateSendRequest({ phoneNumberId: context.number.phoneNumberId, to: message.recipient, template: context.template, values, headerMedia: context.headerMedia, callbackData: sendReference(message) }),
          );
          // Silence is what closes the window: a send left without an answer for half its timeout
          // or more. A reset at once says nothing about how many sends the provider can hold.
          const silent = !result.ok && result.unknown === true && performance.now() - sendStartedAt >= (settings.sendTimeoutSeconds * 1000) / 2;
          outcome = silent ? 'unanswered' : 'answered';
        } finally {
          window.release(startedAt, outcome);
        }
        if (result.ok) {
          sent.push({ id: message.id, claimToken, providerMessageId: result.providerMessageId });
          scheduleWrite();
          return;
        }
        if (result.unknown) {
          // The provider may have taken it: wait for a status carrying our reference, do not resend.
          unknown.push({ id: message.id, claimToken, code: result.code, title: result.title, settleBy: new Date(Date.now() + settings.unknownSettleSeconds * 1000) });
          scheduleWrite();
          return;
        }
        // What Meta's answer means is the error table's (providers/metaErrors.ts).
        const handling = result.handling ?? metaErrorHandling(result);
        const error = metaFieldsOf(result);
        if (handling.action === 'stop_sender') {
          // The number cannot send: nothing more of it goes out, this message waits with its campaign.
          const first = !this.stoppedNumbers.has(context.number.id);
          this.stoppedNumbers.add(context.number.id);
          retry.push({ id: message.id, claimToken, code: result.code, title: result.title, error, nextAttemptAt: new Date(Date.now() + PAUSED_HOLD_MS), uncounted: true });
          scheduleWrite();
          if (first) this.onSenderStopped?.(context.number.id, { code: result.code, title: result.title, ...(result.details ? { details: result.details } : {}) });
          return;
        }
        if (handling.action === 'template' && handling.templateStatus && context.templateId !== null) {
          const templateId = context.templateId;
          const first = context.templateOutOfUse === null;
          context.templateOutOfUse = templateId;
          if (handling.templateStatus === 'PAUSED') {
            // Paused at Meta: the message waits with its campaign for the template's reinstatement.
            retry.push({ id: message.id, claimToken, code: result.code, title: result.title, error, nextAttemptAt: new Date(Date.now() + PAUSED_HOLD_MS), uncounted: true });
          } else failed.push({ id: message.id, claimToken, code: result.code, title: result.title, error });
          scheduleWrite();
          if (first) this.onTemplateRefused?.(templateId, handling.templateStatus);
          return;
        }
        if (handling.action === 'retry') this.coolDown(context.number, result.code, handling.scope);
        if (handling.action === 'retry' && message.attempts < settings.maxAttempts) {
          const delay = handling.scope === 'pair' ? Math.max(PAIR_RETRY_MS, retryDelayMs(message.attempts)) : retryDelayMs(message.attempts);
          retry.push({ id: message.id, claimToken, code: result.code, title: result.title, error, nextAttemptAt: new Date(Date.now() + delay) });
          scheduleWrite();
        } else {
          failed.push({ id: message.id, claimToken, code: result.code, title: result.title, error });
          scheduleWrite();
        }
      };
      await runWithConcurrency(work, settings.concurrency);
      // No answer is coming any more: what waits for the flush pause is written now.
      flush.now?.();
      while (writing) await writing;
      await writeResults().catch((error: unknown) => {
        writeError ??= error;
      });
      if (writeError) throw writeError;
      if (held.length > 0) await this.hold(held, outOfUse, senderHeld);
      for (const templateId of new Set(outOfUse.values())) this.onTemplateOutOfUse?.(templateId);
    } finally {
      release();
      await this.releaseCampaigns(campaignsHeld);
    }
    return { ...totals, held: held.length };
  }

  /** Counts a batch's messages against their campaigns (see `releaseCampaigns`). */
  private holdCampaigns(claimed: readonly ClaimedMessage[]): Map<number, number> {
    const counts = new Map<number, number>();
    for (const message of claimed) counts.set(message.campaignId, (counts.get(message.campaignId) ?? 0) + 1);
    for (const [campaignId, count] of counts) this.campaignsInFlight.set(campaignId, (this.campaignsInFlight.get(campaignId) ?? 0) + count);
    return counts;
  }

  /**
   * A batch is over: its results are committed (or failed, and the lease sweep has them). A
   * campaign whose messages no other batch of this instance holds may just have completed; while
   * another batch holds one, that batch looks when it ends. The last batch to end looks after
   * every write of this instance has committed, and each instance looks after its own, so the
   * look after the campaign's last commit, on whichever instance, sees every message finished.
   * Before, every result write looked: a read of the campaign's open messages per 20 sends.
   */
  private async releaseCampaigns(counts: ReadonlyMap<number, number>): Promise<void> {
    const idle: number[] = [];
    for (const [campaignId, count] of counts) {
      const left = (this.campaignsInFlight.get(campaignId) ?? count) - count;
      if (left > 0) this.campaignsInFlight.set(campaignId, left);
      else {
        this.campaignsInFlight.delete(campaignId);
        idle.push(campaignId);
      }
    }
    try {
      await this.deps.outcomes.completeCampaigns(idle, this.deps.db, { announceProgress: false });
    } catch (error) {
      // As when a result write fails: a status event of the campaign's messages looks again.
      this.deps.log.warn({ err: error, campaignIds: idle }, 'campaign completion check failed');
    }
  }

  /**
   * Claimed messages not handed over (their campaign is not running, or the claim was taken from
   * us), by their campaign's state now: only rows still carrying our token and never handed are
   * touched. A cancelled campaign's are failed and refunded, a paused one's wait for the resume,
   * one resumed meanwhile goes out at once, anything else is looked at later.
   */
  private async hold(messages: readonly ClaimedMessage[], outOfUse: ReadonlyMap<number, number> = new Map(), senderHeld: ReadonlySet<number> = new Set()): Promise<void> {
    const campaignIds = [...new Set(messages.map((m) => m.campaignId))];
    const later: [number[], Date][] = [];
    // The campaigns are read under a share lock first (a cancel or pause updates the campaign row
    // first, then takes the messages), and the messages requeued in the same transaction: a cancel
    // either waits for this and then fails what was requeued, or has committed and is seen here.
    await this.deps.db.transaction(async (trx) => {
      const statusOf = await this.deps.store.campaignStatuses(trx, campaignIds);
      const byToken = new Map<string, number[]>();
      for (const message of messages) appendTo(byToken, message.claimToken, message.id);
      const mine = new Set<number>();
      for (const [claimToken, ids] of byToken) {
        for (const id of await this.deps.store.ownedUnhanded(trx, ids, claimToken)) mine.add(id);
      }
      const cancelled = new Map<number, number[]>();
      const byDelay = new Map<number, number[]>();
      for (const message of messages) {
        if (!mine.has(message.id)) continue;
        const status = statusOf.get(message.campaignId);
        if (status === 'cancelled') {
          appendTo(cancelled, message.campaignId, message.id);
          continue;
        }
        // Resumed since this instance cached it (on another instance): the next claim reads it afresh.
        if (status === 'running') this.forgetCampaign(message.campaignId);
        // Running with a template out of use: held until the campaign follows its template.
        // Running with its sender stopped: held until the campaign pauses with its number.
        const delay = status === 'running' && !outOfUse.has(message.campaignId) && !senderHeld.has(message.campaignId) ? 0 : status === 'paused' ? PAUSED_HOLD_MS : HOLD_MS;
        appendTo(byDelay, delay, message.id);
      }
      for (const [campaignId, ids] of cancelled) await this.deps.outcomes.failCancelled(trx, campaignId, 'sending', ids);
      for (const [delay, ids] of byDelay) {
        const until = new Date(Date.now() + delay);
        await trx('messages')
          .whereIn('id', ids)
          .where({ status: 'sending' })
          .whereNull('handedAt')
          .update({ status: 'queued', nextAttemptAt: until.toISOString(), leaseUntil: null, claimToken: null, attempts: trx.raw('attempts - 1') });
        later.push([ids, until]);
      }
    });
    for (const [ids, until] of later) await this.deps.jobs.hold(ids, until);
  }

  /**
   * Slows down after a rate answer: 130429 pauses the number a moment, 131048 cools it down for
   * longer, and the business account's limits (80007, 4, 131057) pause every number of its owner.
   * A pair limit (131056) concerns that recipient only: only its message waits.
   */
  private coolDown(number: SenderNumber, code: number, scope: RetryScope | null): void {
    if (code === 130429) this.bucketFor(number).pause(THROTTLE_PAUSE_MS);
    else if (scope === 'number') this.bucketFor(number).pause(NUMBER_COOLDOWN_MS);
    else if (scope === 'account') {
      for (const [numberId, userId] of this.ownerOfNumber) if (userId === number.userId) this.buckets.get(numberId)?.pause(ACCOUNT_COOLDOWN_MS);
    }
  }

  /** A stopped number may send again (its credentials were fixed, or it was resumed). */
  forgetNumber(numberId: number): void {
    this.stoppedNumbers.delete(numberId);
    for (const [campaignId, context] of this.contexts) if (context.number.id === numberId) this.forgetCampaign(campaignId);
  }

  /** A campaign's state changed (pause, resume, cancel): the next send of it reads it again. */
  forgetCampaign(campaignId: number): void {
    this.contexts.delete(campaignId);
    this.loading.delete(campaignId);
  }
}

function appendTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

export async function runWithConcurrency(tasks: readonly (() => Promise<void>)[], limit: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const task = tasks[next++] as () => Promise<void>;
      await task();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
}
