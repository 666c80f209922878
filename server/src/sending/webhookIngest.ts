/**
 * Provider webhooks after parsing (providers/webhooks.ts): every change is verified against the
 * secret of its own account, then statuses are stored for StatusIngest (scoped to the sender
 * number that signed them), incoming messages are stored for ConversationService (which runs the
 * opt-out rule on each for that number's owner), and template review events touch only that
 * business's PENDING templates. See SECURITY.md for the threat model.
 */
import type { Knex } from 'knex';
import type { Logger } from '../logger';
import { PLATFORM_PHONE_NUMBER_ID } from './platformSender';
import type { MessageOutcomes } from './messageOutcomes';
import { channelWebhookTokenMatches } from '../providerAccounts/channelWebhook';
import type { ProviderCredentialStore } from '../providerAccounts/credentials';
import { parseWebhookChanges, verifyWebhookSignature, type NumberHealthEvent, type TemplateEvent, type UnknownWebhookChange, type WebhookChange } from './providers/webhooks';
import { metaRejectionText, metaTemplateStatusMove, simulatorWabaOwner, type TemplateCategoryMove, type TemplateStatusMove } from '../templates/templateEvents';
import type { StatusIngest } from './statusIngest';
import { REPLY_REFERENCE_PREFIX } from './replyReferences';
import type { InboundMessage, StatusEvent } from './providers/types';
import { SharedReads } from '../lookupCache';

/**
 * A secret that may vouch for an account. `platformHeld`: the platform keeps it (the simulator,
 * the platform's own Meta app), so failures it reports are refunded at once; a customer's own
 * secret could be used to report their delivered messages as failed, so those refunds wait for
 * an administrator (WebhookIngest's caller documents where).
 */
/** Where incoming messages and the statuses of service replies go (conversations/service.ts). */
export interface InboundHandler {
  storeInbound(ownerIds: readonly number[], phoneNumberId: string, inbound: readonly InboundMessage[]): Promise<void>;
  applyReplyStatuses(ownerIds: readonly number[], statuses: readonly StatusEvent[]): Promise<void>;
}

interface Signer {
  userId: number | null;
  secret: string;
  platformHeld: boolean;
}

export interface WebhookIngestDeps {
  db: Knex;
  accounts: Pick<ProviderCredentialStore, 'webhookPartiesForNumber' | 'webhookSignersForBusiness' | 'channelWebhookKeys'>;
  outcomes: Pick<MessageOutcomes, 'addSuppressions' | 'removeSuppression'>;
  statuses: Pick<StatusIngest, 'store'>;
  /**
   * Incoming messages and the statuses of service replies (conversations/service.ts): every
   * incoming message is stored there and, in the batch that applies it, goes through the one
   * opt-out rule for the number's owner.
   */
  conversations: InboundHandler;
  log: Logger;
  /**
   * The simulator's signing secret, or null when the simulator is off. `loopbackOnly`: the
   * secret is the public default, so it vouches only for requests from this machine.
   */
  simulator: { secret: string; loopbackOnly: boolean } | null;
  /** The platform's own Meta app secret (businesses onboarded under the platform's app). */
  platformAppSecret: string | null;
}

export interface WebhookReceipt {
  /** False when no change of the body was signed by its own account's secret. */
  verified: boolean;
  applied: number;
  ignored: number;
}

/**
 * Told after each template status event was applied: `move` when this call moved the status (a
 * compare-and-set, so of several instances or a repeat of the same webhook only one reports it),
 * null when the status stayed; campaigns follow the status either way (templateHolds.ts), so a
 * repeat heals work a stopped process left undone. Must not throw.
 */
export type TemplateStatusListener = (templateId: number, move: TemplateStatusMove | null) => Promise<void>;

export class WebhookIngest {
  /** Set once the services that follow a template's status exist (container.ts). */
  onTemplateStatus: TemplateStatusListener | null = null;
  /** Told once per category move (compare-and-set, as the status). Must not throw. */
  onTemplateCategory: ((move: TemplateCategoryMove) => Promise<void>) | null = null;
  /**
   * Told of a verified number-health webhook (`phone_number_quality_update`, `account_update`)
   * with the owners of the business account that signed it (sending/numberHealth.ts). Must not throw.
   */
  onNumberHealth: ((ownerIds: number[], event: NumberHealthEvent) => Promise<void>) | null = null;

  /**
   * Concurrent POSTs for one number share the read of its signers under way; none is kept after
   * it, so a changed or removed secret still counts from the next read on every instance.
   */
  private readonly partiesReads = new SharedReads();

  constructor(private readonly deps: WebhookIngestDeps) {}

  /**
   * Verifies and applies a signed webhook body. `fromLoopback`: the request came from this
   * machine (the in-process simulator posts from there).
   */
  async receive(rawBody: string | Buffer, signature: string, body: unknown, fromLoopback: boolean): Promise<WebhookReceipt> {
    const changes = parseWebhookChanges(body);
    const receipt: WebhookReceipt = { verified: false, applied: 0, ignored: 0 };
    const cache = new Map<string, Signer[]>();
    let accountKnown = false;
    for (const change of changes) {
      const key = change.kind === 'number' ? `n:${change.phoneNumberId}` : `b:${change.wabaId}`;
      let signers = cache.get(key);
      if (!signers) {
        const candidates = await this.signersFor(change, fromLoopback);
        if (candidates.length > 0) accountKnown = true;
        signers = candidates.filter((s) => verifyWebhookSignature(rawBody, signature, s.secret));
        cache.set(key, signers);
      }
      if (signers.length === 0) {
        receipt.ignored += 1;
        continue;
      }
      receipt.verified = true;
      receipt.applied += 1;
      await this.apply(change, signers);
    }
    // A body about no account we keep (none named, a business since removed) is still
    // acknowledged when the platform's own secret signed it: refusing it only makes Meta retry it
    // for days. Its changes are not applied. A body about a known account must carry that
    // account's signature, whoever else signed it.
    if (!receipt.verified && !accountKnown && this.platformSigned(rawBody, signature, fromLoopback)) receipt.verified = true;
    if (receipt.ignored > 0) this.deps.log.warn({ ignored: receipt.ignored, applied: receipt.applied }, 'webhook changes not signed by their own account were ignored');
    return receipt;
  }

  /**
   * A webhook 360dialog forwarded for a channel registered by Sandesh: the token header must be the
   * one derived from the channel's API key (providerAccounts/channelWebhook.ts). Meta's body is then
   * applied to that channel's sender number, whatever `phone_number_id` it names: that is Meta's id
   * of the number, which the channel settings (channel id + API key) never tell us.
   */
  async receiveFromChannel(channelId: string, token: string, body: unknown): Promise<WebhookReceipt> {
    const receipt: WebhookReceipt = { verified: false, applied: 0, ignored: 0 };
    if (!channelId || !token) return receipt;
    const owners = (await this.deps.accounts.channelWebhookKeys(channelId)).filter((key) => channelWebhookTokenMatches(token, key.secret, channelId));
    if (owners.length === 0) return receipt;
    receipt.verified = true;
    const signers: Signer[] = owners.map((owner) => ({ userId: owner.userId, secret: owner.secret, platformHeld: false }));
    for (const change of parseWebhookChanges(body)) {
      receipt.applied += 1;
      await this.apply(change.kind === 'number' ? { ...change, phoneNumberId: channelId } : change, signers);
    }
    return receipt;
  }

  private simulatorSecret(fromLoopback: boolean): string | null {
    const { simulator } = this.deps;
    return simulator && (fromLoopback || !simulator.loopbackOnly) ? simulator.secret : null;
  }

  private platformSigned(rawBody: string | Buffer, signature: string, fromLoopback: boolean): boolean {
    const secrets = [this.simulatorSecret(fromLoopback), this.deps.platformAppSecret].filter((s): s is string => !!s);
    return secrets.some((secret) => verifyWebhookSignature(rawBody, signature, secret));
  }

  private async signersFor(change: WebhookChange, fromLoopback: boolean): Promise<Signer[]> {
    const { platformAppSecret } = this.deps;
    const simulatorSigner = this.simulatorSecret(fromLoopback);
    if (change.kind === 'business') {
      // A sandbox user's simulator account is theirs alone; the bare one belongs to no customer,
      // and its events name templates by the id the simulator gave them (no owner).
      const simulatorOwner = simulatorWabaOwner(change.wabaId);
      if (simulatorOwner !== undefined) return simulatorSigner ? [{ userId: simulatorOwner, secret: simulatorSigner, platformHeld: true }] : [];
      const own = await this.deps.accounts.webhookSignersForBusiness(change.wabaId);
      return [...own.map((s) => ({ ...s, platformHeld: false })), ...(platformAppSecret ? own.map((s) => ({ userId: s.userId, secret: platformAppSecret, platformHeld: true })) : [])];
    }
    const phoneNumberId = change.phoneNumberId;
    if (phoneNumberId === PLATFORM_PHONE_NUMBER_ID) {
      return [...(simulatorSigner ? [{ userId: null, secret: simulatorSigner, platformHeld: true }] : []), ...(platformAppSecret ? [{ userId: null, secret: platformAppSecret, platformHeld: true }] : [])];
    }
    // One query, shared by the POSTs that overlap it: every POST waits on it before it is answered.
    const { numbers, signers: own } = await this.partiesReads.get(phoneNumberId, () => this.deps.accounts.webhookPartiesForNumber(phoneNumberId));
    const signers: Signer[] = [];
    for (const number of numbers) {
      if (number.provider === 'simulator' && simulatorSigner) signers.push({ userId: number.userId, secret: simulatorSigner, platformHeld: true });
      if (number.provider === 'cloud_api' && platformAppSecret) signers.push({ userId: number.userId, secret: platformAppSecret, platformHeld: true });
    }
    for (const signer of own) signers.push({ ...signer, platformHeld: false });
    return signers;
  }

  private async apply(change: WebhookChange, signers: Signer[]): Promise<void> {
    const owners = [...new Set(signers.flatMap((s) => (s.userId === null ? [] : [s.userId])))];
    if (change.kind === 'business') {
      if (change.unknown) await this.storeUnknown(change.wabaId, change.unknown);
      if (change.numberHealth) await this.onNumberHealth?.(owners, change.numberHealth);
      const platformOnly = owners.length === 0 && signers.some((s) => s.platformHeld);
      for (const event of change.templates) {
        if (platformOnly) await this.applyTemplateEvent(null, event);
        for (const userId of owners) await this.applyTemplateEvent(userId, event);
      }
      return;
    }
    const { phoneNumberId } = change;
    if (change.unknown) await this.storeUnknown(change.unknown.wabaId || phoneNumberId, change.unknown);
    const refundTrusted = signers.some((s) => s.platformHeld);
    // The platform's own reset codes are not campaign messages: their statuses have nothing to update.
    if (phoneNumberId !== PLATFORM_PHONE_NUMBER_ID) {
      // Service replies carry their own reference: their statuses never reach the campaign messages.
      const replies = change.events.statuses.filter((status) => status.callbackData?.startsWith(REPLY_REFERENCE_PREFIX));
      const campaign = replies.length === 0 ? change.events.statuses : change.events.statuses.filter((status) => !status.callbackData?.startsWith(REPLY_REFERENCE_PREFIX));
      await this.deps.statuses.store(campaign.map((status) => ({ ...status, phoneNumberId, refundTrusted })));
      if (replies.length > 0) await this.deps.conversations.applyReplyStatuses(owners, replies);
      await this.deps.conversations.storeInbound(owners, phoneNumberId, change.events.messages);
    }
    for (const userId of owners) {
      for (const preference of change.events.preferences) {
        if (preference.value === 'stop') await this.deps.outcomes.addSuppressions(this.deps.db, [{ userId, recipient: preference.waId, source: 'preference_webhook', reason: '' }]);
        else await this.deps.outcomes.removeSuppression(userId, preference.waId);
      }
    }
  }

  /** Keeps a signed change we do not act on, and drops those past their retention. */
  private async storeUnknown(wabaId: string, change: UnknownWebhookChange): Promise<void> {
    const now = new Date();
    const body = JSON.stringify(change.body) ?? 'null';
    await this.deps.db('webhook_unknown_events').insert({
      field: change.field,
      wabaId: wabaId.slice(0, 100),
      body: body.length > UNKNOWN_EVENT_BODY_MAX ? body.slice(0, UNKNOWN_EVENT_BODY_MAX) : body,
      receivedAt: now.toISOString(),
    });
    await this.deps
      .db('webhook_unknown_events')
      .where('receivedAt', '<', new Date(now.getTime() - UNKNOWN_EVENT_RETENTION_DAYS * 86_400_000).toISOString())
      .delete();
    this.deps.log.info({ field: change.field, wabaId }, 'webhook change of a field we do not act on was stored');
  }

  /**
   * Applies a template event of Meta's to the template it names: by Meta's template id when a
   * template of the owner carries it, else by name and language. `userId` null: the simulator's
   * account, whose templates are found by id alone. Drafts are never touched (Meta never saw
   * them), and an event older than the one already recorded is skipped.
   * See docs/decisions/2026-12-07-template-events-from-meta.md for the status mapping.
   */
  private async applyTemplateEvent(userId: number | null, event: TemplateEvent): Promise<void> {
    const moved = await this.moveTemplate(userId, event);
    if (moved && (moved.status === 'APPROVED' || moved.status === 'REJECTED') && moved.wasInMetaReview) this.onTemplateReviewed?.(moved.id);
  }

  /** A template whose Meta review ended (approved or rejected from "In review at Meta"): its owner is told. */
  onTemplateReviewed?: (templateId: number) => void;

  private async moveTemplate(userId: number | null, event: TemplateEvent): Promise<{ id: number; status: string; wasInMetaReview: boolean } | null> {
    const template = await this.findTemplate(userId, event);
    if (!template) {
      this.deps.log.info({ userId, template: event.name, templateId: event.templateId, kind: event.kind }, 'template event names no template of ours');
      return null;
    }
    const at = event.at.toISOString();
    const update: Record<string, unknown> = { updatedAt: new Date().toISOString() };
    if (event.templateId && !template.providerTemplateId) update.providerTemplateId = event.templateId.slice(0, 100);
    const guarded = this.deps.db('templates').where({ id: template.id }).whereNot({ status: 'DRAFT' });
    if (event.kind === 'quality') {
      Object.assign(update, { qualityRating: event.quality.slice(0, 20), qualityUpdatedAt: at });
      guarded.where((q) => q.whereNull('qualityUpdatedAt').orWhere('qualityUpdatedAt', '<=', at));
    } else if (event.kind === 'category') {
      // An impending change (`correct_category`) is only a notice: the category moves when Meta
      // reports it done.
      if (event.correctCategory || !TEMPLATE_CATEGORIES.has(event.newCategory)) {
        this.deps.log.info({ templateId: template.id, event }, 'template category notice recorded in the log only');
        return null;
      }
      if (event.newCategory === template.category) return null;
      update.category = event.newCategory;
      // Compare-and-set: the instance (or repeat) whose update moves the category reports it.
      guarded.where({ category: template.category });
      if ((await guarded.update(update)) > 0) {
        await this.onTemplateCategory?.({ templateId: template.id, userId: Number(template.userId), name: template.name, from: template.category, to: event.newCategory, at: event.at });
      }
      return null;
    } else {
      const status = metaTemplateStatusMove(event.event, template);
      Object.assign(update, { metaStatus: event.event.slice(0, 30), metaStatusReason: event.reason, metaStatusAt: at });
      if (status) {
        update.status = status;
        guarded.where({ status: template.status });
        // Meta's answer ends the submission: nothing is left to retry.
        Object.assign(update, { metaSubmitDueAt: null, metaSubmitClaimedUntil: null, metaSubmitError: null });
      }
      if (status === 'REJECTED') update.rejectionReason = metaRejectionText(event.reason ?? event.event);
      if (event.event === 'PAUSED') Object.assign(update, { pauseTitle: event.info?.title ?? null, pauseDescription: event.info?.description ?? null });
      else if (status === 'APPROVED') Object.assign(update, { pauseTitle: null, pauseDescription: null });
      guarded.where((q) => q.whereNull('metaStatusAt').orWhere('metaStatusAt', '<=', at));
      const changed = await guarded.update(update);
      const move: TemplateStatusMove | null =
        status && changed > 0
          ? { templateId: template.id, userId: Number(template.userId), name: template.name, language: template.language, from: template.status, to: status, metaEvent: event.event, reason: event.reason ?? null, at: event.at }
          : null;
      await this.onTemplateStatus?.(template.id, move);
      const wasInMetaReview = template.status === 'PENDING' && template.reviewedAt !== null && template.rejectionReason === null;
      return move ? { id: template.id, status: move.to, wasInMetaReview } : null;
    }
    await guarded.update(update);
    return null;
  }

  private async findTemplate(userId: number | null, event: TemplateEvent): Promise<TemplateEventTarget | null> {
    const columns = ['id', 'userId', 'name', 'language', 'category', 'status', 'reviewedAt', 'rejectionReason', 'providerTemplateId'];
    if (event.templateId) {
      const query = this.deps.db('templates').where({ providerTemplateId: event.templateId });
      if (userId !== null) query.where({ userId });
      const byId = (await query.first(columns)) as TemplateEventTarget | undefined;
      if (byId) return byId;
    }
    if (userId === null) {
      // The simulator may post its review before the submitting instance stored the id it was
      // given: the template being submitted under that name and language is the one (the
      // simulator's account refuses a second of the same name and language).
      const inFlight = this.deps
        .db('templates')
        .where({ name: event.name, language: event.language.replace('-', '_'), status: 'PENDING' })
        .whereNull('providerTemplateId')
        .whereNotNull('metaSubmitClaimedUntil');
      return ((await inFlight.orderBy('id').first(columns)) as TemplateEventTarget | undefined) ?? null;
    }
    // Meta writes the locale with a hyphen in some events (en-US) and an underscore in others.
    const language = event.language.replace('-', '_');
    const query = this.deps.db('templates').where({ userId, name: event.name });
    if (language) query.where({ language });
    return ((await query.orderBy('id').first(columns)) as TemplateEventTarget | undefined) ?? null;
  }
}

/** The categories templates keep (the table checks them). */
const TEMPLATE_CATEGORIES: ReadonlySet<string> = new Set(['MARKETING', 'UTILITY', 'AUTHENTICATION']);

/** Stored unknown changes are kept this long, and each body up to this many characters. */
const UNKNOWN_EVENT_RETENTION_DAYS = 30;
const UNKNOWN_EVENT_BODY_MAX = 16_000;

interface TemplateEventTarget {
  id: number;
  userId: number | string;
  name: string;
  language: string;
  category: string;
  status: string;
  reviewedAt: string | Date | null;
  rejectionReason: string | null;
  providerTemplateId: string | null;
}
