/**
 * A local stand-in for Razorpay's Orders and Payments API (the parts Sandesh calls), with
 * helpers that play the customer's side: pay an order the way Checkout would (returning the
 * signed result) and send webhooks signed with the webhook secret.
 */
import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

interface StoredOrder {
  id: string;
  amount: number;
  currency: string;
  receipt: string;
  notes: Record<string, string>;
  status: 'created' | 'paid';
}

interface StoredPayment {
  id: string;
  order_id: string;
  amount: number;
  status: 'authorized' | 'captured' | 'failed';
}

export const STAND_IN_KEYS = { keyId: 'rzp_test_standin', keySecret: 'standin-key-secret', webhookSecret: 'standin-webhook-secret' } as const;

const sign = (secret: string, payload: string) => createHmac('sha256', secret).update(payload).digest('hex');

export class RazorpayStandIn {
  readonly orders = new Map<string, StoredOrder>();
  readonly payments = new Map<string, StoredPayment>();
  requests = 0;
  /** User-Agent of every request, in order: the official SDK says `razorpay-node@<version>`. */
  readonly userAgents: string[] = [];
  private server: http.Server | null = null;
  url = '';

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      void this.handle(req, res);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    this.requests += 1;
    this.userAgents.push(String(req.headers['user-agent'] ?? ''));
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>) : {};
    const send = (status: number, payload: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(payload));
    };
    const expectedAuth = `Basic ${Buffer.from(`${STAND_IN_KEYS.keyId}:${STAND_IN_KEYS.keySecret}`).toString('base64')}`;
    if (req.headers.authorization !== expectedAuth) return send(401, { error: { code: 'BAD_REQUEST_ERROR', description: 'Authentication failed' } });
    const url = req.url ?? '';
    if (req.method === 'POST' && url === '/v1/orders') {
      const order: StoredOrder = {
        id: `order_${randomBytes(7).toString('hex')}`,
        amount: Number(body.amount),
        currency: String(body.currency),
        receipt: String(body.receipt),
        notes: (body.notes as Record<string, string>) ?? {},
        status: 'created',
      };
      this.orders.set(order.id, order);
      return send(200, { ...order, entity: 'order', amount_paid: 0 });
    }
    const paymentMatch = /^\/v1\/payments\/([^/]+)(\/capture)?$/.exec(url);
    if (paymentMatch) {
      const payment = this.payments.get(decodeURIComponent(paymentMatch[1]!));
      if (!payment) return send(404, { error: { code: 'BAD_REQUEST_ERROR', description: 'The id provided does not exist' } });
      if (req.method === 'POST' && paymentMatch[2]) {
        if (Number(body.amount) !== payment.amount) return send(400, { error: { code: 'BAD_REQUEST_ERROR', description: 'Capture amount must be equal to the amount authorized' } });
        payment.status = 'captured';
      }
      return send(200, { ...payment, entity: 'payment', currency: 'INR' });
    }
    return send(404, { error: { code: 'BAD_REQUEST_ERROR', description: 'The requested URL was not found on the server.' } });
  }

  /** What Checkout hands the page after a successful payment. */
  pay(orderId: string, options: { status?: 'authorized' | 'captured'; amount?: number } = {}) {
    const order = this.orders.get(orderId);
    if (!order) throw new Error(`stand-in: no order ${orderId}`);
    const payment: StoredPayment = { id: `pay_${randomBytes(7).toString('hex')}`, order_id: orderId, amount: options.amount ?? order.amount, status: options.status ?? 'captured' };
    this.payments.set(payment.id, payment);
    order.status = 'paid';
    return { orderId, paymentId: payment.id, signature: sign(STAND_IN_KEYS.keySecret, `${orderId}|${payment.id}`) };
  }

  /** A webhook body and its signature, as Razorpay would post them. */
  webhook(event: 'payment.captured' | 'order.paid' | 'payment.failed', paymentId: string, secret: string = STAND_IN_KEYS.webhookSecret) {
    const payment = this.payments.get(paymentId);
    if (!payment) throw new Error(`stand-in: no payment ${paymentId}`);
    const body = JSON.stringify({
      entity: 'event',
      event,
      payload: {
        payment: {
          entity: {
            ...payment,
            entity: 'payment',
            currency: 'INR',
            // What Razorpay reports of a failed attempt.
            ...(event === 'payment.failed' ? { status: 'failed', error_code: 'BAD_REQUEST_ERROR', error_description: 'Payment was declined by the bank', error_reason: 'payment_failed' } : {}),
          },
        },
        ...(event === 'order.paid' ? { order: { entity: { ...this.orders.get(payment.order_id), entity: 'order' } } } : {}),
      },
    });
    return { body, signature: sign(secret, body) };
  }

  /**
   * A refund webhook of a captured payment, shaped as Razorpay documents it
   * (https://razorpay.com/docs/webhooks/refunds): the refund entity with the payment's id and the
   * refunded paise, beside the payment entity.
   */
  refundWebhook(event: 'refund.created' | 'refund.processed', paymentId: string, refund: { id: string; amount: number }, secret: string = STAND_IN_KEYS.webhookSecret) {
    const payment = this.payments.get(paymentId);
    if (!payment) throw new Error(`stand-in: no payment ${paymentId}`);
    const body = JSON.stringify({
      entity: 'event',
      event,
      contains: ['refund', 'payment'],
      payload: {
        refund: { entity: { id: refund.id, entity: 'refund', amount: refund.amount, currency: 'INR', payment_id: paymentId, notes: {}, receipt: null, status: event === 'refund.processed' ? 'processed' : 'pending' } },
        payment: { entity: { ...payment, entity: 'payment', currency: 'INR', amount_refunded: refund.amount, refund_status: 'partial' } },
      },
    });
    return { body, signature: sign(secret, body) };
  }
}
