import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { CREDIT_UNITS_PER_RUPEE } from '@shared/constants';
import { messages } from '@shared/messages';
import { AppError, BadRequestError, NotFoundError, ServiceUnavailableError } from '../errors';
import { forUpdateIfSupported } from '../db/dialect';
import type { Logger } from '../logger';
import type { AuditService } from '../audit/service';
import { Payment, User, type PaymentProvider } from '../models';
import { constantTimeEqual } from '../security/tokens';
import type { InvoiceService, TopUpQuote } from '../invoices/service';
import type { WalletService } from '../wallet/service';
import { hmacHex, type PaymentGateway, type SandboxGateway } from './gateway';

export interface CreatedOrder {
  orderId: string;
  amountPaise: number;
  /** Credit units the order adds when paid. */
  creditUnits: number;
  /** The tax priced into the order. */
  quote: TopUpQuote;
  gateway: PaymentGateway;
}

export interface CreditResult {
  credited: boolean;
  balanceUnits: number;
}

interface WebhookPaymentEntity {
  id?: unknown;
  order_id?: unknown;
  amount?: unknown;
  status?: unknown;
  /** Razorpay's words for a failed payment ("Payment was declined by the bank"). */
  error_description?: unknown;
}

/**
 * What the wallet's owner is told. `credited` follows the crediting transaction's
 * commit, whichever path credited (verify, either webhook, the sandbox checkout), so it is told
 * once per order; `failed` is once per payment attempt (an order may be retried after a failure).
 */
export interface PaymentEvents {
  credited(userId: number, orderId: string): void;
  failed(userId: number, failure: { orderId: string; paymentId: string; reason: string }): void;
  /** A gateway refund was applied (once per refund id); `shortfallUnits` > 0 needs an administrator. */
  refunded?(refund: TopUpRefund): void;
}

/** Razorpay's refund entity (refund.created / refund.processed): the amount is in paise. */
interface WebhookRefundEntity {
  id?: unknown;
  payment_id?: unknown;
  amount?: unknown;
  status?: unknown;
}

/** A gateway refund of a top-up as applied to the wallet. */
export interface TopUpRefund {
  userId: number;
  refundId: string;
  amountPaise: number;
  /** Credits the refunded money bought. */
  creditUnits: number;
  /** Taken back from the wallet: at most what it held. */
  debitedUnits: number;
  /** Already spent, so not taken back: an administrator settles it. */
  shortfallUnits: number;
}

interface WebhookEvent {
  event?: unknown;
  payload?: {
    refund?: { entity?: WebhookRefundEntity };
    payment?: { entity?: WebhookPaymentEntity };
    order?: { entity?: { id?: unknown; amount?: unknown } };
  };
}

/**
 * Wallet top-ups. The credit is decided from the stored order (amount and owner), never from the
 * client. Verify and the webhook may race, repeat and arrive in any order: the crediting
 * transaction locks the order row and writes a ledger row with a unique key per order, so the
 * wallet is credited exactly once.
 */
export class PaymentService {
  constructor(
    private readonly deps: {
      db: Knex;
      wallet: WalletService;
      invoices: InvoiceService;
      audit: AuditService;
      log: Logger;
      razorpay: PaymentGateway | null;
      sandbox: SandboxGateway | null;
      webhookSecret: string | undefined;
      events?: PaymentEvents;
    },
  ) {}

  /** The gateway new orders use: Razorpay when configured, else the sandbox, else none. */
  get activeGateway(): PaymentGateway | null {
    return this.deps.razorpay ?? this.deps.sandbox;
  }

  get sandbox(): SandboxGateway | null {
    return this.deps.sandbox;
  }

  private gatewayFor(provider: PaymentProvider): PaymentGateway | null {
    return provider === 'razorpay' ? this.deps.razorpay : this.deps.sandbox;
  }

  /**
   * An order for a top-up of `amountRupees`: the credits bought (GST added on top) in exclusive
   * mode, the amount paid (GST included) in inclusive mode, both without GST. The tax is priced
   * now and kept on the order, so the invoice matches what the checkout showed.
   */
  async createOrder(user: User, amountRupees: number, actorUserId: number | null = null): Promise<CreatedOrder> {
    const gateway = this.activeGateway;
    if (!gateway) throw ServiceUnavailableError('payments_not_configured', messages.wallet.notConfigured);
    const quote = this.deps.invoices.quote(user, amountRupees);
    const amountPaise = quote.split.totalPaise;
    const creditRupees = quote.creditUnits / CREDIT_UNITS_PER_RUPEE;
    const receipt = `topup_${user.id}_${Date.now()}_${randomBytes(3).toString('hex')}`;
    const order = await gateway.createOrder({
      amountPaise,
      receipt,
      notes: { purpose: 'wallet_topup', credits: String(creditRupees), userId: String(user.id) },
    });
    if (order.amount !== amountPaise) {
      this.deps.log.error({ orderId: order.id, expected: amountPaise, got: order.amount }, 'gateway created an order for another amount');
      throw new AppError(502, 'payment_gateway_mismatch', messages.wallet.orderFailed);
    }
    const now = new Date();
    await Payment.query(this.deps.db).insert({
      userId: user.id,
      provider: gateway.provider,
      orderId: order.id,
      paymentId: null,
      amountPaise,
      creditUnits: quote.creditUnits,
      currency: 'INR',
      status: 'created',
      creditedBy: null,
      createdAt: now,
      updatedAt: now,
      paidAt: null,
      actorUserId,
      ...(quote.placeOfSupply
        ? { taxablePaise: quote.split.taxablePaise, cgstPaise: quote.split.cgstPaise, sgstPaise: quote.split.sgstPaise, igstPaise: quote.split.igstPaise, placeOfSupply: quote.placeOfSupply }
        : { taxablePaise: null, cgstPaise: null, sgstPaise: null, igstPaise: null, placeOfSupply: null }),
    });
    return { orderId: order.id, amountPaise, creditUnits: quote.creditUnits, quote, gateway };
  }

  /** The checkout result from the browser: signature, then the provider's word, then the credit. */
  async verify(user: User, input: { orderId: string; paymentId: string; signature: string }): Promise<CreditResult> {
    const payment = await Payment.query(this.deps.db).findOne({ orderId: input.orderId });
    // Another user's order looks exactly like a missing one.
    if (!payment || payment.userId !== user.id) throw NotFoundError(messages.wallet.orderNotFound, 'order_not_found');
    const gateway = this.gatewayFor(payment.provider);
    if (!gateway) throw NotFoundError(messages.wallet.orderNotFound, 'order_not_found');

    const expected = hmacHex(gateway.signatureSecret, `${payment.orderId}|${input.paymentId}`);
    if (!constantTimeEqual(expected, input.signature)) {
      this.deps.log.warn({ orderId: payment.orderId, userId: user.id }, 'payment verification with a bad signature');
      throw BadRequestError('signature_invalid', messages.wallet.signatureInvalid);
    }
    if (payment.status === 'paid') {
      return { credited: false, balanceUnits: await this.deps.wallet.balance(user.id) };
    }

    let remote = await gateway.fetchPayment(input.paymentId);
    if (remote.orderId !== payment.orderId || remote.amount !== payment.amountPaise) {
      this.deps.log.error({ orderId: payment.orderId, remote }, 'provider payment does not match the stored order');
      throw BadRequestError('payment_mismatch', messages.wallet.signatureInvalid);
    }
    if (remote.status === 'authorized') remote = await gateway.capturePayment(remote.id, payment.amountPaise);
    if (remote.status !== 'captured') {
      if (remote.status === 'failed') this.deps.events?.failed(payment.userId, { orderId: payment.orderId, paymentId: remote.id, reason: messages.wallet.paymentNotCaptured });
      throw BadRequestError('payment_not_captured', messages.wallet.paymentNotCaptured);
    }
    return this.creditOrder(payment.orderId, remote.id, 'verify');
  }

  /** The sandbox window's Pay button: a signed result for an open sandbox order. */
  async sandboxPay(orderId: string): Promise<ReturnType<SandboxGateway['pay']>> {
    const sandbox = this.deps.sandbox;
    const payment = await Payment.query(this.deps.db).findOne({ orderId, provider: 'sandbox' });
    if (!sandbox || !payment || payment.status === 'paid') throw NotFoundError(messages.wallet.orderNotFound, 'order_not_found');
    return sandbox.pay(payment.orderId, payment.amountPaise);
  }

  /**
   * The sandbox window's Decline button: the attempt fails as a declined card would (the order
   * stays open for another try), and its owner is told, as the payment.failed webhook does.
   */
  async sandboxDecline(orderId: string): Promise<{ error: { description: string } }> {
    const payment = await Payment.query(this.deps.db).findOne({ orderId, provider: 'sandbox' });
    if (!this.deps.sandbox || !payment || payment.status === 'paid') throw NotFoundError(messages.wallet.orderNotFound, 'order_not_found');
    await Payment.query(this.deps.db).patch({ status: 'failed', updatedAt: new Date() }).where({ id: payment.id, status: 'created' });
    const attempt = `pay_SBXdeclined${randomBytes(6).toString('hex')}`;
    this.deps.events?.failed(payment.userId, { orderId, paymentId: attempt, reason: messages.wallet.sandboxDeclined });
    return { error: { description: messages.wallet.sandboxDeclined } };
  }

  /** Credits a paid order once, whoever asks first; its owner is told after the commit. */
  async creditOrder(orderId: string, paymentId: string, by: 'verify' | 'webhook'): Promise<CreditResult> {
    const { result, userId } = await this.creditInTransaction(orderId, paymentId, by);
    if (result.credited) this.deps.events?.credited(userId, orderId);
    return result;
  }

  private creditInTransaction(orderId: string, paymentId: string, by: 'verify' | 'webhook'): Promise<{ result: CreditResult; userId: number }> {
    return this.deps.db.transaction(async (trx) => {
      const payment = await forUpdateIfSupported(Payment.query(trx).findOne({ orderId }), trx);
      if (!payment) throw NotFoundError(messages.wallet.orderNotFound, 'order_not_found');
      if (payment.status === 'paid') {
        if (payment.paymentId !== paymentId) {
          this.deps.log.error({ orderId, paidWith: payment.paymentId, again: paymentId }, 'a second payment for an order already paid: not credited, refund it in the dashboard');
        }
        return { result: { credited: false, balanceUnits: await this.deps.wallet.balance(payment.userId, trx) }, userId: payment.userId };
      }
      const { entry, applied } = await this.deps.wallet.apply(
        {
          userId: payment.userId,
          amountUnits: payment.creditUnits,
          type: 'TOPUP_ADD',
          description: payment.provider === 'sandbox' ? 'Wallet top-up (sandbox, no real money)' : 'Wallet top-up via Razorpay',
          idempotencyKey: `payment:order:${orderId}`,
          referenceType: 'payment',
          referenceId: paymentId,
          // The member who started the top-up, whoever reports the capture (the browser or Razorpay).
          actorUserId: payment.actorUserId,
        },
        trx,
      );
      const now = new Date();
      await Payment.query(trx).patch({ status: 'paid', paymentId, paidAt: now, updatedAt: now, creditedBy: by }).where({ id: payment.id });
      if (applied) {
        const buyer = await User.query(trx).findById(payment.userId);
        if (buyer) await this.deps.invoices.issueForPayment(trx, payment, entry, buyer, now);
        await this.deps.audit.record(
          { actorUserId: payment.actorUserId, action: 'wallet.topup', targetType: 'account', targetId: payment.userId, details: { orderId, creditUnits: payment.creditUnits } },
          trx,
        );
      }
      return { result: { credited: applied, balanceUnits: entry.balanceAfter }, userId: payment.userId };
    });
  }

  /**
   * Razorpay webhooks: the signature over the raw body is checked with the webhook secret;
   * payment.captured and order.paid credit the order, payment.failed records the failure.
   * Unknown orders and events are acknowledged (so Razorpay stops retrying) and logged.
   */
  async handleWebhook(rawBody: string, signature: string): Promise<{ handled: string }> {
    if (!this.deps.webhookSecret || !this.deps.razorpay) throw ServiceUnavailableError('webhook_not_configured', messages.wallet.notConfigured);
    if (!signature || !constantTimeEqual(hmacHex(this.deps.webhookSecret, rawBody), signature)) {
      this.deps.log.warn('Razorpay webhook with a bad signature');
      throw BadRequestError('webhook_signature_invalid', messages.wallet.signatureInvalid);
    }
    let event: WebhookEvent;
    try {
      event = JSON.parse(rawBody) as WebhookEvent;
    } catch {
      throw BadRequestError('invalid_json', messages.validation.invalidJson);
    }
    const name = typeof event.event === 'string' ? event.event : 'unknown';
    // Only a processed refund has given the money back; refund.created may still fail at the bank.
    if (name === 'refund.processed') return this.handleRefund(event.payload?.refund?.entity);
    const entity = event.payload?.payment?.entity;
    const paymentId = typeof entity?.id === 'string' ? entity.id : null;
    const orderId =
      typeof entity?.order_id === 'string' ? entity.order_id : typeof event.payload?.order?.entity?.id === 'string' ? event.payload.order.entity.id : null;
    if (!orderId) return { handled: `ignored:${name}` };
    const payment = await Payment.query(this.deps.db).findOne({ orderId });
    if (!payment || payment.provider !== 'razorpay') {
      this.deps.log.warn({ orderId, event: name }, 'webhook for an unknown order');
      return { handled: `unknown-order:${name}` };
    }
    if (name === 'payment.failed') {
      await Payment.query(this.deps.db).patch({ status: 'failed', updatedAt: new Date() }).where({ id: payment.id, status: 'created' });
      // A failed attempt of an order that another attempt has paid since is old news.
      if (payment.status !== 'paid' && paymentId) {
        const reason = typeof entity?.error_description === 'string' && entity.error_description.trim() ? entity.error_description.trim().slice(0, 300) : messages.wallet.paymentDeclined;
        this.deps.events?.failed(payment.userId, { orderId, paymentId, reason });
      }
      return { handled: name };
    }
    if (name !== 'payment.captured' && name !== 'order.paid') return { handled: `ignored:${name}` };
    if (!paymentId) return { handled: `ignored:${name}` };
    if (typeof entity?.amount === 'number' && entity.amount !== payment.amountPaise) {
      this.deps.log.error({ orderId, expected: payment.amountPaise, got: entity.amount }, 'webhook amount does not match the order');
      return { handled: `amount-mismatch:${name}` };
    }
    await this.creditOrder(orderId, paymentId, 'webhook');
    return { handled: name };
  }

  /**
   * Razorpay's `refund.processed`: the refunded share of the top-up's credits is taken back from
   * the wallet, at most what it holds (docs/decisions/2026-12-07-gateway-refunds.md), and the
   * payment's invoice gets a credit note for the whole refunded share, since the money went back.
   * Idempotent by refund id: the refund row's unique key and the ledger entry's key.
   */
  private async handleRefund(entity: WebhookRefundEntity | undefined): Promise<{ handled: string }> {
    const name = 'refund.processed';
    const refundId = typeof entity?.id === 'string' ? entity.id : null;
    const gatewayPaymentId = typeof entity?.payment_id === 'string' ? entity.payment_id : null;
    const amountPaise = typeof entity?.amount === 'number' && Number.isSafeInteger(entity.amount) && entity.amount > 0 ? entity.amount : null;
    if (!refundId || !gatewayPaymentId || amountPaise === null) return { handled: `ignored:${name}` };
    const outcome = await this.deps.db.transaction(async (trx) => {
      const payment = await forUpdateIfSupported(Payment.query(trx).findOne({ paymentId: gatewayPaymentId, provider: 'razorpay' }), trx);
      if (!payment || payment.status !== 'paid') return { handled: `unknown-payment:${name}`, refund: null };
      if (await trx('payment_refunds').where({ refundId }).first('id')) return { handled: `duplicate:${name}`, refund: null };
      const refunded = (await trx('payment_refunds').where({ paymentId: payment.id }).sum({ paise: 'amountPaise' }).first()) as { paise: number | string | null } | undefined;
      const refundable = payment.amountPaise - Number(refunded?.paise ?? 0);
      if (amountPaise > refundable) {
        this.deps.log.error({ refundId, paymentId: gatewayPaymentId, amountPaise, refundable }, 'refund larger than what is left of the payment: not applied');
        return { handled: `amount-mismatch:${name}`, refund: null };
      }
      // The credits the refunded money bought, rounded to the nearest unit.
      const creditUnits = Math.round((payment.creditUnits * amountPaise) / payment.amountPaise);
      const { entry, movedUnits } = await this.deps.wallet.deductAtMost(trx, {
        userId: payment.userId,
        units: creditUnits,
        type: 'TOPUP_REFUND',
        description: 'Top-up refunded via Razorpay',
        idempotencyKey: `payment:refund:${refundId}`,
        referenceType: 'payment_refund',
        referenceId: refundId,
      });
      const refund: TopUpRefund = { userId: payment.userId, refundId, amountPaise, creditUnits, debitedUnits: movedUnits, shortfallUnits: creditUnits - movedUnits };
      const now = new Date();
      await trx('payment_refunds').insert({
        paymentId: payment.id,
        userId: payment.userId,
        refundId,
        amountPaise,
        creditUnits,
        debitedUnits: refund.debitedUnits,
        shortfallUnits: refund.shortfallUnits,
        creditTransactionId: entry ? Number(entry.id) : null,
        createdAt: now.toISOString(),
      });
      await this.deps.invoices.issueCreditNotes(trx, {
        userId: payment.userId,
        units: creditUnits,
        reason: `Refund ${refundId}`,
        creditTransactionId: entry ? Number(entry.id) : null,
        at: now,
        paymentId: payment.id,
      });
      if (refund.shortfallUnits > 0) this.deps.log.warn({ ...refund }, 'refund larger than the credits left in the wallet: the rest is flagged to the administrators');
      return { handled: name, refund };
    });
    if (outcome.refund) this.deps.events?.refunded?.(outcome.refund);
    return { handled: outcome.handled };
  }
}
