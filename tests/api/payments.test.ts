import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillMessage, messages } from '@shared/messages';
import type { TNotification, TNotificationList } from '@shared/schemas/notifications';
import type { TCreateOrderResponse } from '@shared/types';
import { TestClient } from '../../server/test/client';
import { signedInClient } from '../../server/test/factories';
import { RazorpayStandIn, STAND_IN_KEYS } from '../../server/test/razorpayStandIn';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';

/** The signed-in user's notifications of one kind (posted after the payment's commit, so polled). */
async function notificationsOf(client: TestClient, kind: string): Promise<TNotification[]> {
  return (await client.get<TNotificationList>('/api/notifications')).body.notifications.filter((n) => n.kind === kind);
}

describe.skipIf(postgresUnavailable)('Razorpay top-up against a local stand-in', () => {
  let server: TestServer;
  let razorpay: RazorpayStandIn;
  beforeAll(async () => {
    razorpay = await new RazorpayStandIn().start();
    server = await startTestServer({
      RAZORPAY_KEY_ID: STAND_IN_KEYS.keyId,
      RAZORPAY_KEY_SECRET: STAND_IN_KEYS.keySecret,
      RAZORPAY_WEBHOOK_SECRET: STAND_IN_KEYS.webhookSecret,
      RAZORPAY_API_BASE: razorpay.url,
    });
  });
  afterAll(async () => {
    await server?.close();
    await razorpay?.stop();
  });

  async function balanceOf(client: TestClient): Promise<number> {
    return ((await client.get<{ user: { creditBalance: number } }>(`/api/auth/me?t=${Date.now()}`)).body.user.creditBalance);
  }

  async function topUpEntries(client: TestClient) {
    const history = await client.get<{ history: { type: string; amount: number }[] }>('/api/credits/history');
    return history.body.history.filter((entry) => entry.type === 'TOPUP_ADD');
  }

  async function newOrder(client: TestClient, amountCredits: number | string = 1000) {
    const response = await client.post<TCreateOrderResponse>('/api/payments/razorpay/order', { amountCredits });
    expect(response.status).toBe(200);
    return response.body;
  }

  const webhook = (body: string, signature: string) =>
    new TestClient(server.url).request('POST', '/api/payments/razorpay/webhook', body, { 'X-Razorpay-Signature': signature });

  it('reports that online payments are on, with the real checkout script', async () => {
    const { client } = await signedInClient(server);
    const config = await client.get('/api/payments/config');
    expect(config.body).toEqual({ success: true, enabled: true, sandbox: false, checkoutUrl: 'https://checkout.razorpay.com/v1/checkout.js', gst: null });
  });

  it('creates an order in paise with the spec notes, stored for its owner', async () => {
    const { client, user } = await signedInClient(server);
    const order = await newOrder(client, '5,000');
    expect(order).toMatchObject({ success: true, keyId: STAND_IN_KEYS.keyId, amount: 500_000, currency: 'INR', amountCredits: 5000, sandbox: false, notes: { purpose: 'wallet_topup', credits: '5000' } });
    expect(razorpay.orders.get(order.orderId)).toMatchObject({ amount: 500_000, notes: { purpose: 'wallet_topup', credits: '5000', userId: String(user.id) } });
  });

  it('talks to Razorpay through the official SDK', async () => {
    const { client } = await signedInClient(server);
    const before = razorpay.userAgents.length;
    await newOrder(client, '1000');
    expect(razorpay.userAgents.slice(before)).toEqual([expect.stringMatching(/^razorpay-node@2\./)]);
  });

  it.each([
    [0, messages.wallet.amountMin],
    [-5, messages.wallet.amountMin],
    [100_001, messages.wallet.amountMax],
    ['12.5', messages.wallet.amountWhole],
    ['abc', messages.wallet.amountWhole],
  ])('refuses an order of %j with the spec message', async (amountCredits, message) => {
    const { client } = await signedInClient(server);
    const response = await client.post('/api/payments/razorpay/order', { amountCredits });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: message, field: 'amountCredits' });
  });

  it('credits a verified payment once, from the stored order, whatever amountCredits says', async () => {
    const { client } = await signedInClient(server);
    const order = await newOrder(client, 1000);
    const paid = razorpay.pay(order.orderId);
    const verified = await client.post('/api/payments/razorpay/verify', { ...paid, amountCredits: 100000 });
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({ success: true, message: messages.wallet.creditsAdded, credited: true, creditBalance: 1000 });
    expect(await balanceOf(client)).toBe(1000);

    const replay = await client.post('/api/payments/razorpay/verify', { ...paid, amountCredits: 1000 });
    expect(replay.status).toBe(200);
    expect(replay.body).toMatchObject({ credited: false, creditBalance: 1000 });
    expect(await topUpEntries(client)).toEqual([expect.objectContaining({ amount: 1000 })]);
  });

  it('refuses a bad signature and credits nothing', async () => {
    const { client } = await signedInClient(server);
    const order = await newOrder(client);
    const paid = razorpay.pay(order.orderId);
    const response = await client.post('/api/payments/razorpay/verify', { ...paid, signature: paid.signature.replace(/^./, (c) => (c === 'a' ? 'b' : 'a')) });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: messages.wallet.signatureInvalid, code: 'signature_invalid' });
    expect(await balanceOf(client)).toBe(0);
  });

  it("refuses another user's order as if it did not exist", async () => {
    const { client: owner } = await signedInClient(server);
    const { client: stranger } = await signedInClient(server);
    const order = await newOrder(owner);
    const paid = razorpay.pay(order.orderId);
    const response = await stranger.post('/api/payments/razorpay/verify', paid);
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ error: messages.wallet.orderNotFound });
    expect(await balanceOf(stranger)).toBe(0);
    expect(await balanceOf(owner)).toBe(0);
  });

  it('refuses a signed payment id that belongs to another order', async () => {
    const { client } = await signedInClient(server);
    const small = await newOrder(client, 1);
    const large = await newOrder(client, 100000);
    const paidSmall = razorpay.pay(small.orderId);
    // A client cannot make a real signature for the large order without the key secret.
    const response = await client.post('/api/payments/razorpay/verify', { orderId: large.orderId, paymentId: paidSmall.paymentId, signature: paidSmall.signature });
    expect(response.status).toBe(400);
    expect(await balanceOf(client)).toBe(0);
  });

  it('captures an authorized payment before crediting it', async () => {
    const { client } = await signedInClient(server);
    const order = await newOrder(client, 250);
    const paid = razorpay.pay(order.orderId, { status: 'authorized' });
    const response = await client.post('/api/payments/razorpay/verify', paid);
    expect(response.body).toMatchObject({ credited: true, creditBalance: 250 });
    expect(razorpay.payments.get(paid.paymentId)?.status).toBe('captured');
  });

  it('credits a payment whose browser window closed, from the webhook alone', async () => {
    const { client } = await signedInClient(server);
    const order = await newOrder(client, 700);
    const paid = razorpay.pay(order.orderId);
    const event = razorpay.webhook('payment.captured', paid.paymentId);
    const response = await webhook(event.body, event.signature);
    expect(response.status).toBe(200);
    expect(await balanceOf(client)).toBe(700);
    // The browser comes back later: nothing more is added.
    const late = await client.post('/api/payments/razorpay/verify', paid);
    expect(late.body).toMatchObject({ credited: false, creditBalance: 700 });
    // The owner is told of the credit the webhook made, once.
    await expect.poll(async () => (await notificationsOf(client, 'payment_credited')).map((n) => n.message)).toEqual([fillMessage(messages.notifications.paymentCredited, { amount: '₹700.00' })]);
  });

  it('credits exactly once when verify races two webhooks', async () => {
    const { client } = await signedInClient(server);
    const order = await newOrder(client, 1234);
    const paid = razorpay.pay(order.orderId);
    const captured = razorpay.webhook('payment.captured', paid.paymentId);
    const orderPaid = razorpay.webhook('order.paid', paid.paymentId);
    const results = await Promise.all([
      client.post('/api/payments/razorpay/verify', paid),
      webhook(captured.body, captured.signature),
      webhook(orderPaid.body, orderPaid.signature),
      webhook(captured.body, captured.signature),
      client.post('/api/payments/razorpay/verify', paid),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await balanceOf(client)).toBe(1234);
    expect(await topUpEntries(client)).toHaveLength(1);
    await expect.poll(async () => (await notificationsOf(client, 'payment_credited')).length).toBe(1);
    // Whatever path comes again later, the credit is not told twice.
    await webhook(orderPaid.body, orderPaid.signature);
    await client.post('/api/payments/razorpay/verify', paid);
    expect(await notificationsOf(client, 'payment_credited')).toHaveLength(1);
  });

  it('refuses a forged webhook', async () => {
    const { client } = await signedInClient(server);
    const order = await newOrder(client, 900);
    const paid = razorpay.pay(order.orderId);
    const forged = razorpay.webhook('payment.captured', paid.paymentId, 'not-the-webhook-secret');
    const response = await webhook(forged.body, forged.signature);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'webhook_signature_invalid' });
    const unsigned = await webhook(forged.body, '');
    expect(unsigned.status).toBe(400);
    expect(await balanceOf(client)).toBe(0);
  });

  it('ignores a webhook whose amount does not match the stored order', async () => {
    const { client } = await signedInClient(server);
    const order = await newOrder(client, 10);
    const paid = razorpay.pay(order.orderId, { amount: 999_900 });
    const event = razorpay.webhook('payment.captured', paid.paymentId);
    const response = await webhook(event.body, event.signature);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ handled: 'amount-mismatch:payment.captured' });
    expect(await balanceOf(client)).toBe(0);
  });

  it('records a failed payment and still credits a later successful one for the order', async () => {
    const { client } = await signedInClient(server);
    const order = await newOrder(client, 300);
    const failed = razorpay.pay(order.orderId);
    const failedEvent = razorpay.webhook('payment.failed', failed.paymentId);
    await webhook(failedEvent.body, failedEvent.signature);
    const row = (await server.db('payments').where({ orderId: order.orderId }).first()) as { status: string };
    expect(row.status).toBe('failed');
    // The owner is told with Razorpay's reason, once however often the webhook comes.
    const told = [fillMessage(messages.notifications.paymentFailed, { reason: 'Payment was declined by the bank' })];
    await expect.poll(async () => (await notificationsOf(client, 'payment_failed')).map((n) => n.message)).toEqual(told);
    await webhook(failedEvent.body, failedEvent.signature);
    const retried = razorpay.pay(order.orderId);
    expect((await client.post('/api/payments/razorpay/verify', retried)).body).toMatchObject({ credited: true, creditBalance: 300 });
    await expect.poll(async () => (await notificationsOf(client, 'payment_credited')).length).toBe(1);
    expect((await notificationsOf(client, 'payment_failed')).map((n) => n.message)).toEqual(told);
  });

  it('answers 502 with a clear message when Razorpay cannot be reached', async () => {
    const { client } = await signedInClient(server);
    await razorpay.stop();
    try {
      const response = await client.post('/api/payments/razorpay/order', { amountCredits: 10 });
      expect(response.status).toBe(502);
      expect(response.body).toMatchObject({ error: messages.wallet.gatewayUnavailable });
    } finally {
      razorpay = await new RazorpayStandIn().start();
    }
  });

  it('requires a session for orders and verification, not for the webhook', async () => {
    const visitor = new TestClient(server.url);
    expect((await visitor.post('/api/payments/razorpay/order', { amountCredits: 10 })).status).toBe(401);
    expect((await visitor.post('/api/payments/razorpay/verify', { orderId: 'x', paymentId: 'y', signature: 'z' })).status).toBe(401);
  });
});

describe.skipIf(postgresUnavailable)('payments without Razorpay keys', () => {
  it('offers the sandbox checkout in development, and the whole flow credits once', async () => {
    const server = await startTestServer();
    try {
      const { client } = await signedInClient(server);
      expect((await client.get('/api/payments/config')).body).toMatchObject({ enabled: true, sandbox: true, checkoutUrl: '/sandbox/razorpay/checkout.js' });
      const script = await client.get('/sandbox/razorpay/checkout.js');
      expect(script.status).toBe(200);
      expect(String(script.body)).toContain('window.Razorpay');
      const order = (await client.post<TCreateOrderResponse>('/api/payments/razorpay/order', { amountCredits: 1000 })).body;
      expect(order).toMatchObject({ sandbox: true, keyId: 'rzp_sandbox' });
      const signed = (await new TestClient(server.url).post<Record<string, string>>('/sandbox/razorpay/pay', { orderId: order.orderId })).body;
      const verify = await client.post('/api/payments/razorpay/verify', { orderId: signed.razorpay_order_id, paymentId: signed.razorpay_payment_id, signature: signed.razorpay_signature });
      expect(verify.body).toMatchObject({ credited: true, creditBalance: 1000 });
      expect((await new TestClient(server.url).post('/sandbox/razorpay/pay', { orderId: order.orderId })).status).toBe(404);
      await expect.poll(async () => (await notificationsOf(client, 'payment_credited')).map((n) => n.message)).toEqual([fillMessage(messages.notifications.paymentCredited, { amount: '₹1,000.00' })]);

      // Decline: the attempt fails as a declined card would, the owner is told, the order stays payable.
      const secondResponse = await client.post<TCreateOrderResponse>('/api/payments/razorpay/order', { amountCredits: 50 });
      expect(secondResponse.body).toMatchObject({ sandbox: true });
      const second = secondResponse.body;
      const declined = await new TestClient(server.url).post('/sandbox/razorpay/decline', { orderId: second.orderId });
      expect(declined.body).toEqual({ error: { description: messages.wallet.sandboxDeclined } });
      await expect.poll(async () => (await notificationsOf(client, 'payment_failed')).map((n) => n.message)).toEqual([fillMessage(messages.notifications.paymentFailed, { reason: messages.wallet.sandboxDeclined })]);
      const retry = (await new TestClient(server.url).post<Record<string, string>>('/sandbox/razorpay/pay', { orderId: second.orderId })).body;
      expect((await client.post('/api/payments/razorpay/verify', { orderId: retry.razorpay_order_id, paymentId: retry.razorpay_payment_id, signature: retry.razorpay_signature })).body).toMatchObject({ credited: true, creditBalance: 1050 });
      await expect.poll(async () => (await notificationsOf(client, 'payment_credited')).length).toBe(2);
      // A paid order, or one that does not exist, cannot be declined.
      expect((await new TestClient(server.url).post('/sandbox/razorpay/decline', { orderId: second.orderId })).status).toBe(404);
      expect((await new TestClient(server.url).post('/sandbox/razorpay/decline', { orderId: 'order_SBXnothing' })).status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it('in production says plainly that online payment is not configured, and has no sandbox', async () => {
    const server = await startTestServer({ NODE_ENV: 'production', SECRETS_KEY: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef', COOKIE_SECURE: 'false', LOG_LEVEL: 'silent' });
    try {
      const { client } = await signedInClient(server);
      expect((await client.get('/api/payments/config')).body).toMatchObject({ enabled: false, sandbox: false, checkoutUrl: null });
      const order = await client.post('/api/payments/razorpay/order', { amountCredits: 10 });
      expect(order.status).toBe(503);
      expect(order.body).toMatchObject({ error: messages.wallet.notConfigured, code: 'payments_not_configured' });
      expect((await client.get('/sandbox/razorpay/checkout.js')).status).toBe(404);
      expect((await client.post('/sandbox/razorpay/pay', { orderId: 'order_SBXabc' })).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});
