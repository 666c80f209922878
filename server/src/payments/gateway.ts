import { createHmac, randomBytes } from 'node:crypto';
import { messages } from '@shared/messages';
import { AppError } from '../errors';

export interface GatewayOrder {
  id: string;
  amount: number;
  currency: string;
}

export type GatewayPaymentStatus = 'created' | 'authorized' | 'captured' | 'refunded' | 'failed';

export interface GatewayPayment {
  id: string;
  orderId: string;
  amount: number;
  status: GatewayPaymentStatus;
}

/** What the payment service needs from a payment provider. */
export interface PaymentGateway {
  readonly provider: 'razorpay' | 'sandbox';
  readonly keyId: string;
  readonly checkoutUrl: string;
  /** Secret that signs `order_id|payment_id` in the checkout result. */
  readonly signatureSecret: string;
  createOrder(input: { amountPaise: number; receipt: string; notes: Record<string, string> }): Promise<GatewayOrder>;
  fetchPayment(paymentId: string): Promise<GatewayPayment>;
  capturePayment(paymentId: string, amountPaise: number): Promise<GatewayPayment>;
}

/** HMAC-SHA256 hex, as Razorpay signs checkout results and webhooks. */
export function hmacHex(secret: string, payload: string): string {
  return createHmac('sha256', secret).update(payload).digest('hex');
}

export const GatewayUnavailableError = () => new AppError(502, 'payment_gateway_unavailable', messages.wallet.gatewayUnavailable);

interface RazorpayPaymentEntity {
  id: string;
  order_id: string;
  amount: number;
  status: GatewayPaymentStatus;
}

/**
 * Razorpay's Orders and Payments API over HTTP with Basic auth. Plain fetch rather than the SDK:
 * we use three calls, and the SDK can only be pointed at a stand-in through a private field.
 */
export class RazorpayGateway implements PaymentGateway {
  readonly provider = 'razorpay' as const;

  constructor(private readonly settings: { keyId: string; keySecret: string; apiBase: string; checkoutUrl: string; timeoutMs?: number }) {}

  get keyId(): string {
    return this.settings.keyId;
  }
  get checkoutUrl(): string {
    return this.settings.checkoutUrl;
  }
  get signatureSecret(): string {
    return this.settings.keySecret;
  }

  private async call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${this.settings.apiBase}/v1${path}`, {
        method,
        headers: {
          Authorization: `Basic ${Buffer.from(`${this.settings.keyId}:${this.settings.keySecret}`).toString('base64')}`,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.settings.timeoutMs ?? 15_000),
      });
    } catch {
      throw GatewayUnavailableError();
    }
    const text = await response.text();
    if (!response.ok) {
      if (response.status === 404 || response.status === 400) {
        throw new AppError(400, 'payment_gateway_rejected', messages.wallet.paymentNotCaptured);
      }
      throw GatewayUnavailableError();
    }
    try {
      return JSON.parse(text) as T;
    } catch {
      throw GatewayUnavailableError();
    }
  }

  async createOrder(input: { amountPaise: number; receipt: string; notes: Record<string, string> }): Promise<GatewayOrder> {
    const order = await this.call<{ id: string; amount: number; currency: string }>('POST', '/orders', {
      amount: input.amountPaise,
      currency: 'INR',
      receipt: input.receipt,
      notes: input.notes,
      payment_capture: 1,
    });
    return { id: order.id, amount: order.amount, currency: order.currency };
  }

  async fetchPayment(paymentId: string): Promise<GatewayPayment> {
    const payment = await this.call<RazorpayPaymentEntity>('GET', `/payments/${encodeURIComponent(paymentId)}`);
    return { id: payment.id, orderId: payment.order_id, amount: payment.amount, status: payment.status };
  }

  async capturePayment(paymentId: string, amountPaise: number): Promise<GatewayPayment> {
    const payment = await this.call<RazorpayPaymentEntity>('POST', `/payments/${encodeURIComponent(paymentId)}/capture`, { amount: amountPaise, currency: 'INR' });
    return { id: payment.id, orderId: payment.order_id, amount: payment.amount, status: payment.status };
  }
}

/**
 * The development sandbox: orders and payments live in this process and are signed like
 * Razorpay's, so a person can try the whole top-up flow without a Razorpay account. Never built
 * in production (config refuses PAYMENTS_SANDBOX there).
 */
export class SandboxGateway implements PaymentGateway {
  readonly provider = 'sandbox' as const;
  readonly keyId = 'rzp_sandbox';
  readonly checkoutUrl = '/sandbox/razorpay/checkout.js';
  readonly signatureSecret = randomBytes(32).toString('hex');
  private readonly payments = new Map<string, GatewayPayment>();

  async createOrder(input: { amountPaise: number }): Promise<GatewayOrder> {
    return { id: `order_SBX${randomBytes(8).toString('hex')}`, amount: input.amountPaise, currency: 'INR' };
  }

  /** What the sandbox checkout window does when its Pay button is pressed. */
  pay(orderId: string, amountPaise: number): { razorpay_payment_id: string; razorpay_order_id: string; razorpay_signature: string } {
    const id = `pay_SBX${randomBytes(8).toString('hex')}`;
    this.payments.set(id, { id, orderId, amount: amountPaise, status: 'captured' });
    return { razorpay_payment_id: id, razorpay_order_id: orderId, razorpay_signature: hmacHex(this.signatureSecret, `${orderId}|${id}`) };
  }

  async fetchPayment(paymentId: string): Promise<GatewayPayment> {
    const payment = this.payments.get(paymentId);
    if (!payment) throw new AppError(400, 'payment_gateway_rejected', messages.wallet.paymentNotCaptured);
    return payment;
  }

  async capturePayment(paymentId: string): Promise<GatewayPayment> {
    return this.fetchPayment(paymentId);
  }
}
