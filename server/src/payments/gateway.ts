import { createHmac, randomBytes } from 'node:crypto';
import Razorpay from 'razorpay';
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

/** What the SDK's promises reject with when Razorpay answers with an error. */
interface RazorpayApiError {
  statusCode: number | string;
  error?: { code?: string; description?: string };
}

function isRazorpayApiError(error: unknown): error is RazorpayApiError {
  return typeof error === 'object' && error !== null && 'statusCode' in error;
}

/** The SDK's HTTP client: its base URL and timeout are set here (the stand-in in tests, a bound always). */
interface RazorpayHttpClient {
  rq: { defaults: { baseURL?: string; timeout?: number } };
}

/**
 * The SDK puts ids into request paths unencoded: anything but Razorpay's id alphabet
 * (`pay_9A33XWu170gUtm`) is refused before it can reach another path of their API.
 */
function razorpayId(id: string): string {
  if (!/^[A-Za-z0-9_]{1,64}$/.test(id)) throw new AppError(400, 'payment_gateway_rejected', messages.wallet.paymentNotCaptured);
  return id;
}

function toGatewayPayment(payment: { id: string; order_id: string; amount: number | string; status: string }): GatewayPayment {
  return { id: payment.id, orderId: payment.order_id, amount: Number(payment.amount), status: payment.status as GatewayPaymentStatus };
}

/**
 * Razorpay's Orders and Payments API through the official `razorpay` SDK. The SDK is pointed at
 * `apiBase` (Razorpay itself, or the local stand-in in tests) and bounded by a timeout. Its
 * answers are mapped to our errors: Razorpay refusing a payment is the customer's problem (400),
 * anything else (network, 5xx, the SDK rejecting with a TypeError) means the gateway is away (502).
 */
export class RazorpayGateway implements PaymentGateway {
  readonly provider = 'razorpay' as const;
  private readonly client: Razorpay;

  constructor(private readonly settings: { keyId: string; keySecret: string; apiBase: string; checkoutUrl: string; timeoutMs?: number }) {
    this.client = new Razorpay({ key_id: settings.keyId, key_secret: settings.keySecret });
    const http = (this.client.api as unknown as RazorpayHttpClient).rq;
    http.defaults.baseURL = settings.apiBase;
    http.defaults.timeout = settings.timeoutMs ?? 15_000;
  }

  get keyId(): string {
    return this.settings.keyId;
  }
  get checkoutUrl(): string {
    return this.settings.checkoutUrl;
  }
  get signatureSecret(): string {
    return this.settings.keySecret;
  }

  private async call<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      if (isRazorpayApiError(error)) {
        const status = Number(error.statusCode);
        if (status === 400 || status === 404) throw new AppError(400, 'payment_gateway_rejected', messages.wallet.paymentNotCaptured);
      }
      throw GatewayUnavailableError();
    }
  }

  async createOrder(input: { amountPaise: number; receipt: string; notes: Record<string, string> }): Promise<GatewayOrder> {
    const order = await this.call(() =>
      this.client.orders.create({ amount: input.amountPaise, currency: 'INR', receipt: input.receipt, notes: input.notes, payment_capture: true }),
    );
    return { id: order.id, amount: Number(order.amount), currency: order.currency };
  }

  async fetchPayment(paymentId: string): Promise<GatewayPayment> {
    const id = razorpayId(paymentId);
    return toGatewayPayment(await this.call(() => this.client.payments.fetch(id)));
  }

  async capturePayment(paymentId: string, amountPaise: number): Promise<GatewayPayment> {
    const id = razorpayId(paymentId);
    return toGatewayPayment(await this.call(() => this.client.payments.capture(id, amountPaise, 'INR')));
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
