/**
 * Provider webhooks after parsing (providers/webhooks.ts): every change is verified against the
 * secret of its own account, then statuses are stored for StatusIngest (scoped to the sender
 * number that signed them), opt-outs are recorded for that number's owner, and template review
 * events touch only that business's PENDING templates. See SECURITY.md for the threat model.
 */
import type { Knex } from 'knex';
import type { Logger } from '../logger';
import { PLATFORM_PHONE_NUMBER_ID } from '../messaging/platformMessenger';
import type { MessageOutcomes } from './messageOutcomes';
import type { ProviderCredentialStore } from '../providerAccounts/credentials';
import { parseWebhookChanges, verifyWebhookSignature, type TemplateStatusEvent, type WebhookChange } from './providers/webhooks';
import type { StatusIngest } from './statusIngest';
import type { WhatsappNumberRow } from '../db/rows/whatsappNumbers';

/** Replies a recipient can send to stop a business's messages (WhatsApp's own wording and common ones). */
const STOP_WORDS = new Set(['stop', 'unsubscribe', 'stop all', 'opt out', 'optout', 'cancel']);
const START_WORDS = new Set(['start', 'subscribe', 'unstop']);

/**
 * A secret that may vouch for an account. `platformHeld`: the platform keeps it (the simulator,
 * the platform's own Meta app), so failures it reports are refunded at once; a customer's own
 * secret could be used to report their delivered messages as failed, so those refunds wait for
 * an administrator (WebhookIngest's caller documents where).
 */
interface Signer {
  userId: number | null;
  secret: string;
  platformHeld: boolean;
}

export interface WebhookIngestDeps {
  db: Knex;
  accounts: Pick<ProviderCredentialStore, 'webhookSignersForNumber' | 'webhookSignersForBusiness'>;
  outcomes: Pick<MessageOutcomes, 'addSuppressions' | 'removeSuppression'>;
  statuses: Pick<StatusIngest, 'store'>;
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

export class WebhookIngest {
  constructor(private readonly deps: WebhookIngestDeps) {}

  /**
   * Verifies and applies a signed webhook body. `fromLoopback`: the request came from this
   * machine (the in-process simulator posts from there).
   */
  async receive(rawBody: string | Buffer, signature: string, body: unknown, fromLoopback: boolean): Promise<WebhookReceipt> {
    const changes = parseWebhookChanges(body);
    const receipt: WebhookReceipt = { verified: false, applied: 0, ignored: 0 };
    const cache = new Map<string, Signer[]>();
    for (const change of changes) {
      const key = change.kind === 'number' ? `n:${change.phoneNumberId}` : `b:${change.wabaId}`;
      let signers = cache.get(key);
      if (!signers) {
        signers = (await this.signersFor(change, fromLoopback)).filter((s) => verifyWebhookSignature(rawBody, signature, s.secret));
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
    if (receipt.ignored > 0) this.deps.log.warn({ ignored: receipt.ignored, applied: receipt.applied }, 'webhook changes not signed by their own account were ignored');
    return receipt;
  }

  private async signersFor(change: WebhookChange, fromLoopback: boolean): Promise<Signer[]> {
    const { simulator, platformAppSecret } = this.deps;
    const simulatorSigner = simulator && (fromLoopback || !simulator.loopbackOnly) ? simulator.secret : null;
    if (change.kind === 'business') {
      const own = await this.deps.accounts.webhookSignersForBusiness(change.wabaId);
      return [...own.map((s) => ({ ...s, platformHeld: false })), ...(platformAppSecret ? own.map((s) => ({ userId: s.userId, secret: platformAppSecret, platformHeld: true })) : [])];
    }
    const phoneNumberId = change.phoneNumberId;
    if (phoneNumberId === PLATFORM_PHONE_NUMBER_ID) {
      return [...(simulatorSigner ? [{ userId: null, secret: simulatorSigner, platformHeld: true }] : []), ...(platformAppSecret ? [{ userId: null, secret: platformAppSecret, platformHeld: true }] : [])];
    }
    const numbers = (await this.deps
      .db('whatsapp_numbers')
      .join('users', 'users.id', 'whatsapp_numbers.userId')
      .where('users.isActive', true)
      .whereNull('users.deletedAt')
      .where('whatsapp_numbers.phoneNumberId', phoneNumberId)
      .select('whatsapp_numbers.userId', 'whatsapp_numbers.provider')) as Pick<WhatsappNumberRow, 'userId' | 'provider'>[];
    const signers: Signer[] = [];
    for (const number of numbers) {
      if (number.provider === 'simulator' && simulatorSigner) signers.push({ userId: number.userId, secret: simulatorSigner, platformHeld: true });
      if (number.provider === 'cloud_api' && platformAppSecret) signers.push({ userId: number.userId, secret: platformAppSecret, platformHeld: true });
    }
    for (const own of await this.deps.accounts.webhookSignersForNumber(phoneNumberId)) signers.push({ ...own, platformHeld: false });
    return signers;
  }

  private async apply(change: WebhookChange, signers: Signer[]): Promise<void> {
    const owners = [...new Set(signers.flatMap((s) => (s.userId === null ? [] : [s.userId])))];
    if (change.kind === 'business') {
      for (const userId of owners) for (const event of change.templates) await this.applyTemplateEvent(userId, event);
      return;
    }
    const { phoneNumberId } = change;
    const refundTrusted = signers.some((s) => s.platformHeld);
    // The platform's own reset codes are not campaign messages: their statuses have nothing to update.
    if (phoneNumberId !== PLATFORM_PHONE_NUMBER_ID) {
      await this.deps.statuses.store(change.events.statuses.map((status) => ({ ...status, phoneNumberId, refundTrusted })));
    }
    for (const userId of owners) {
      for (const inbound of change.events.messages) {
        const word = inbound.text?.trim().toLowerCase() ?? '';
        if (STOP_WORDS.has(word)) await this.deps.outcomes.addSuppressions(this.deps.db, [{ userId, recipient: inbound.from, reason: 'stop_reply' }]);
        else if (START_WORDS.has(word)) await this.deps.outcomes.removeSuppression(userId, inbound.from);
      }
      for (const preference of change.events.preferences) {
        if (preference.value === 'stop') await this.deps.outcomes.addSuppressions(this.deps.db, [{ userId, recipient: preference.waId, reason: 'user_preferences' }]);
        else await this.deps.outcomes.removeSuppression(userId, preference.waId);
      }
    }
  }

  /**
   * A provider's review outcome moves only a PENDING template, and an approval never moves it at
   * all: the administrator's review (which also checks the category that sets the price) stays
   * the only way to APPROVED. Rejections and pauses close a PENDING template early.
   */
  private async applyTemplateEvent(userId: number, event: TemplateStatusEvent): Promise<void> {
    if (event.event === 'APPROVED') {
      this.deps.log.info({ userId, template: event.name }, 'provider approved a template; it waits for the administrator');
      return;
    }
    const query = this.deps.db('templates').where({ userId, name: event.name, status: 'PENDING' });
    if (event.language) query.where({ language: event.language });
    await query.update({ status: event.event, rejectionReason: event.event === 'REJECTED' ? event.reason : null, updatedAt: new Date().toISOString() });
  }
}
