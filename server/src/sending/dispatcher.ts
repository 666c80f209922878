/**
 * Dispatch: sends claimed messages through their sender number's provider, each number held to
 * its messages-per-second limit, and records the results of a batch together.
 *
 * Crash window: a message is claimed (`sending`, with a lease) before it is sent, and its result
 * is written when its batch finishes. If the process dies in between, the claim's lease runs out
 * and the message is sent again: the provider may then deliver it twice. That window is at most
 * one batch per worker (DISPATCH_BATCH_SIZE × DISPATCH_WORKERS in all) and only for sends the
 * provider had already taken.
 */
import type { Knex } from 'knex';
import type { TTemplateComponent } from '@shared/types';
import type { Logger } from '../logger';
import { templateSendRequest, type HeaderMedia, type TemplateShape } from './messageRequest';
import type { MessageOutcomes, SendFailure, SendRetry, SendSuccess } from './messageOutcomes';
import type { ProviderRegistry } from './providerRegistry';
import type { SenderNumber } from './senderNumbers';
import { TokenBucket } from './tokenBucket';

export interface ClaimedMessage {
  id: number;
  campaignId: number;
  recipient: string;
  variables: string | null;
  attempts: number;
}

interface CampaignContext {
  status: string;
  number: SenderNumber;
  template: TemplateShape | null;
  headerMedia: HeaderMedia | null;
  loadedAt: number;
}

export interface DispatchSettings {
  batchSize: number;
  workers: number;
  concurrency: number;
  maxAttempts: number;
  leaseSeconds: number;
}

/** Code recorded when the campaign's template was deleted after acceptance. */
export const TEMPLATE_GONE_CODE = -3;
/** Code recorded when no provider can send for the number (e.g. the simulator is off). */
export const NO_PROVIDER_CODE = -4;

const CONTEXT_TTL_MS = 5_000;
const THROTTLE_PAUSE_MS = 200;
/** Sends run just under a number's limit, so clock drift between us and the provider rarely trips it. */
const RATE_MARGIN = 0.99;
const MAX_BACKOFF_MS = 60_000;
/** Held messages of a campaign in no known state look again after this. */
const HOLD_MS = 30_000;
/** A paused campaign's held messages wait this long; resuming makes them due at once. */
const PAUSED_HOLD_MS = 5 * 60_000;

export function retryDelayMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.8 + random() * 0.4));
}

/** Row fields come back camelCased through knex's mappers, or snake_cased from raw statements. */
export function toClaimed(row: Record<string, unknown>): ClaimedMessage {
  return {
    id: Number(row.id),
    campaignId: Number(row.campaignId ?? row.campaign_id),
    recipient: String(row.recipient),
    variables: (row.variables as string | null) ?? null,
    attempts: Number(row.attempts),
  };
}

export type HoldHook = (messageIds: readonly number[], until: Date) => Promise<void>;

export class MessageDispatcher {
  private holdHook: HoldHook | null = null;
  private readonly buckets = new Map<number, TokenBucket>();
  private readonly contexts = new Map<number, CampaignContext>();
  /** Loads in flight, so concurrent sends of one campaign share one query when the cache lapses. */
  private readonly loading = new Map<number, Promise<CampaignContext | null>>();

  constructor(
    private readonly deps: {
      db: Knex;
      outcomes: MessageOutcomes;
      providers: ProviderRegistry;
      log: Logger;
      settings: DispatchSettings;
      /** Public link of a stored campaign header file (the provider fetches it). */
      mediaUrl: (path: string) => string;
    },
  ) {}

  /** The PostgreSQL queue makes a job for held messages (SQLite's lanes find them in the table). */
  setHoldHook(hook: HoldHook | null): void {
    this.holdHook = hook;
  }

  get settings(): DispatchSettings {
    return this.deps.settings;
  }

  private bucketFor(number: SenderNumber): TokenBucket {
    let bucket = this.buckets.get(number.id);
    if (!bucket) {
      bucket = new TokenBucket(number.messagesPerSecond * RATE_MARGIN);
      this.buckets.set(number.id, bucket);
    } else bucket.setRate(number.messagesPerSecond * RATE_MARGIN);
    return bucket;
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
        't.id as templateId',
        't.components',
        'n.id as numberId',
        'n.userId as numberUserId',
        'n.provider',
        'n.phoneNumberId',
        'n.displayNumber',
        'n.label',
        'n.messagesPerSecond',
        'n.isSandbox',
        'n.isActive',
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
      headerMedia: row.headerMediaPath ? { type: row.headerMediaType as HeaderMedia['type'], link: this.deps.mediaUrl(String(row.headerMediaPath)) } : null,
      loadedAt: Date.now(),
    };
    return context;
  }

  private async stillRunning(campaignId: number): Promise<boolean> {
    return (await this.context(campaignId))?.status === 'running';
  }

  /** Sends one claimed batch and records every result; never throws for a provider's answer. */
  async dispatch(claimed: readonly ClaimedMessage[]): Promise<{ sent: number; retried: number; failed: number; held: number }> {
    const sent: SendSuccess[] = [];
    const retry: SendRetry[] = [];
    const failed: SendFailure[] = [];
    const held: ClaimedMessage[] = [];
    const contexts = new Map<number, CampaignContext | null>();
    for (const message of claimed) if (!contexts.has(message.campaignId)) contexts.set(message.campaignId, await this.context(message.campaignId));
    await this.deps.providers.prepare([...contexts.values()].flatMap((c) => (c ? [c.number] : [])));

    const work = claimed.map((message) => async () => {
      const context = contexts.get(message.campaignId) ?? null;
      if (!context || context.status !== 'running') {
        held.push(message);
        return;
      }
      if (!context.template) {
        failed.push({ id: message.id, code: TEMPLATE_GONE_CODE, title: 'The template was deleted before this message was sent' });
        return;
      }
      const provider = this.deps.providers.providerFor(context.number);
      if (!provider) {
        failed.push({ id: message.id, code: NO_PROVIDER_CODE, title: 'No WhatsApp provider can send for this number' });
        return;
      }
      // A batch can outlast a pause or cancel by seconds at a slow number: each send looks again
      // (cached for a few seconds), before waiting for its slot and after.
      if (!(await this.stillRunning(message.campaignId))) {
        held.push(message);
        return;
      }
      const bucket = this.bucketFor(context.number);
      await bucket.take();
      if (!(await this.stillRunning(message.campaignId))) {
        held.push(message);
        return;
      }
      const values = message.variables ? (JSON.parse(message.variables) as Record<string, string>) : {};
      const result = await provider.sendTemplate(
        templateSendRequest({ phoneNumberId: context.number.phoneNumberId, to: message.recipient, template: context.template, values, headerMedia: context.headerMedia }),
      );
      if (result.ok) {
        sent.push({ id: message.id, providerMessageId: result.providerMessageId });
        return;
      }
      // Too fast for the provider: a short pause for the number, not a whole second.
      if (result.code === 130429) bucket.pause(THROTTLE_PAUSE_MS);
      if (result.retryable && message.attempts < this.deps.settings.maxAttempts) {
        retry.push({ id: message.id, code: result.code, title: result.title, nextAttemptAt: new Date(Date.now() + retryDelayMs(message.attempts)) });
      } else {
        failed.push({ id: message.id, code: result.code, title: result.title });
      }
    });
    await runWithConcurrency(work, this.deps.settings.concurrency);

    await this.deps.outcomes.recordSendResults({ sent, retry, failed });
    if (held.length > 0) await this.hold(held);
    return { sent: sent.length, retried: retry.length, failed: failed.length, held: held.length };
  }

  /**
   * Claimed messages of a campaign that is not running, by its state now: a cancelled campaign's
   * are failed and refunded (the cancel saw them `sending` and left them to us), a paused one's
   * wait for the resume, one resumed meanwhile goes out at once, anything else is looked at later.
   */
  private async hold(messages: readonly ClaimedMessage[]): Promise<void> {
    const campaignIds = [...new Set(messages.map((m) => m.campaignId))];
    const later: [number[], Date][] = [];
    // The status is read under a share lock and the messages requeued in the same transaction: a
    // cancel (which updates the campaign row first) either waits for this and then fails what was
    // requeued, or has committed and is seen here, so nothing is left queued behind a cancel.
    await this.deps.db.transaction(async (trx) => {
      let query = trx('campaigns').whereIn('id', campaignIds).select('id', 'status');
      if (trx.client.config.client === 'pg') query = query.forShare();
      const rows = (await query) as { id: number; status: string }[];
      const statusOf = new Map(rows.map((row) => [Number(row.id), String(row.status)]));
      const cancelled = new Map<number, number[]>();
      const byDelay = new Map<number, number[]>();
      for (const message of messages) {
        const status = statusOf.get(message.campaignId);
        if (status === 'cancelled') {
          appendTo(cancelled, message.campaignId, message.id);
          continue;
        }
        // Resumed since this instance cached it (on another instance): the next claim reads it afresh.
        if (status === 'running') this.forgetCampaign(message.campaignId);
        const delay = status === 'running' ? 0 : status === 'paused' ? PAUSED_HOLD_MS : HOLD_MS;
        appendTo(byDelay, delay, message.id);
      }
      for (const [campaignId, ids] of cancelled) await this.deps.outcomes.failCancelled(trx, campaignId, 'sending', ids);
      for (const [delay, ids] of byDelay) {
        const until = new Date(Date.now() + delay);
        await trx('messages').whereIn('id', ids).where({ status: 'sending' }).update({ status: 'queued', nextAttemptAt: until.toISOString(), leaseUntil: null, attempts: trx.raw('attempts - 1') });
        later.push([ids, until]);
      }
    });
    for (const [ids, until] of later) await this.holdHook?.(ids, until);
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
