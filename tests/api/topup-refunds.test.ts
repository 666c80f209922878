/**
 * Razorpay refunds of top-ups (signed `refund.processed` webhooks): the refunded credits leave
 * the wallet, never below zero, a credit note reduces that payment's invoice, a repeated webhook
 * changes nothing, and a refund larger than what is left in the wallet is recorded and flagged
 * to the administrators. Also the buyer's billing address and state: checked against the GSTIN,
 * printed on the invoice, and deciding the place of supply.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillMessage, messages } from '@shared/messages';
import type { TNotificationList } from '@shared/schemas/notifications';
import type { TCreateOrderResponse, TTaxDocument, TTaxDocumentsResponse, TUser } from '@shared/types';
import { TestClient } from '../../server/test/client';
import { signedInClient } from '../../server/test/factories';
import { RazorpayStandIn, STAND_IN_KEYS } from '../../server/test/razorpayStandIn';
import { postgresUnavailable, startTestServer, TEST_ADMIN, type TestServer } from '../../server/test/server';

/** Telangana (36): buyers there pay CGST + SGST, others IGST. */
const SUPPLIER_GSTIN = '36AAPFU0939F1ZW';
const TELANGANA_BUYER = '36AABCT1332L1ZF';
const MAHARASHTRA_BUYER = '27AAPFU0939F1ZV';

/** The text of an uncompressed PDF's text operations, one line per operation (pdfkit writes glyphs as hex). */
function pdfText(pdf: string): string {
  return pdf
    .split('\n')
    .filter((line) => /\]\s*TJ$/.test(line))
    .map((line) => [...line.matchAll(/<([0-9a-f]*)>/g)].map(([, hex]) => Buffer.from(hex ?? '', 'hex').toString('latin1')).join(''))
    .join('\n');
}

describe.skipIf(postgresUnavailable)('Razorpay refunds of top-ups and the buyer billing address', () => {
  let server: TestServer;
  let razorpay: RazorpayStandIn;
  let refundSeq = 0;

  beforeAll(async () => {
    razorpay = await new RazorpayStandIn().start();
    server = await startTestServer({
      RAZORPAY_KEY_ID: STAND_IN_KEYS.keyId,
      RAZORPAY_KEY_SECRET: STAND_IN_KEYS.keySecret,
      RAZORPAY_WEBHOOK_SECRET: STAND_IN_KEYS.webhookSecret,
      RAZORPAY_API_BASE: razorpay.url,
      GST_SUPPLIER_GSTIN: SUPPLIER_GSTIN,
      GST_SUPPLIER_NAME: 'Sandesh Technologies Pvt Ltd',
      GST_SUPPLIER_ADDRESS: 'Madhapur, Hyderabad, Telangana 500081',
      INVOICE_PREFIX: 'SND',
    });
  });
  afterAll(async () => {
    await server?.close();
    await razorpay?.stop();
  });

  const webhook = (event: { body: string; signature: string }) =>
    new TestClient(server.url).request('POST', '/api/payments/razorpay/webhook', event.body, { 'X-Razorpay-Signature': event.signature });

  async function balanceUnits(userId: number): Promise<number> {
    const row = (await server.db('users').where({ id: userId }).first('creditBalance')) as { creditBalance: number | string };
    return Number(row.creditBalance);
  }

  async function documents(client: TestClient): Promise<TTaxDocument[]> {
    const response = await client.get<TTaxDocumentsResponse>('/api/wallet/invoices');
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body.invoices;
  }

  /** A buyer with a GSTIN who paid for `credits` through Razorpay: the payment's id. */
  async function paidBuyer(credits: number, gstin = TELANGANA_BUYER) {
    const { client, user } = await signedInClient(server);
    expect((await client.put('/api/auth/update-profile', { name: user.name, email: user.email, businessName: 'Asha Traders', gstin })).status).toBe(200);
    const created = (await client.post<TCreateOrderResponse>('/api/payments/razorpay/order', { amountCredits: credits })).body;
    const paid = razorpay.pay(created.orderId);
    expect((await client.post('/api/payments/razorpay/verify', paid)).body).toMatchObject({ credited: true });
    return { client, user, paymentId: paid.paymentId, amountPaise: created.amount };
  }

  const nextRefundId = () => `rfnd_T${Date.now()}${(refundSeq += 1)}`;

  it('takes the credits of a full refund back once and issues one credit note against the payment invoice', async () => {
    const { client, user, paymentId, amountPaise } = await paidBuyer(1000);
    expect(amountPaise).toBe(118_000);
    expect(await balanceUnits(user.id)).toBe(10_000_000);
    const refundId = nextRefundId();

    // Created is not yet given back: nothing moves until Razorpay processes it.
    expect((await webhook(razorpay.refundWebhook('refund.created', paymentId, { id: refundId, amount: 118_000 }))).status).toBe(200);
    expect(await balanceUnits(user.id)).toBe(10_000_000);

    const processed = razorpay.refundWebhook('refund.processed', paymentId, { id: refundId, amount: 118_000 });
    const first = await webhook(processed);
    expect(first.status).toBe(200);
    expect(await balanceUnits(user.id)).toBe(0);
    // Razorpay retries: the same refund changes nothing more.
    expect((await webhook(processed)).status).toBe(200);
    expect(await balanceUnits(user.id)).toBe(0);

    const docs = await documents(client);
    const invoice = docs.find((d) => d.kind === 'invoice')!;
    const notes = docs.filter((d) => d.kind === 'credit_note');
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ against: invoice.number, taxable: '1000.00', cgst: '90.00', sgst: '90.00', igst: '0.00', total: '1180.00', buyer_gstin: TELANGANA_BUYER });
    const ledger = (await server.db('credit_transactions').where({ userId: user.id, type: 'TOPUP_REFUND' }).select('amount')) as { amount: number | string }[];
    expect(ledger.map((row) => Number(row.amount))).toEqual([-10_000_000]);
    await expect
      .poll(async () => (await client.get<TNotificationList>('/api/notifications')).body.notifications.filter((n) => n.kind === 'topup_refunded').map((n) => n.message))
      .toEqual([fillMessage(messages.notifications.refunded, { amount: '₹1,180.00', credits: '₹1,000.00' })]);
  });

  it('refunds part of a top-up in proportion, and refuses to refund more than was paid', async () => {
    const { client, user, paymentId } = await paidBuyer(1000, MAHARASHTRA_BUYER);
    expect((await webhook(razorpay.refundWebhook('refund.processed', paymentId, { id: nextRefundId(), amount: 59_000 }))).status).toBe(200);
    expect(await balanceUnits(user.id)).toBe(5_000_000);
    const [note] = (await documents(client)).filter((d) => d.kind === 'credit_note');
    expect(note).toMatchObject({ taxable: '500.00', cgst: '0.00', sgst: '0.00', igst: '90.00', total: '590.00', place_of_supply: '27-Maharashtra' });
    // Only ₹590 of the ₹1,180 is left to refund: a refund of more is not applied.
    expect((await webhook(razorpay.refundWebhook('refund.processed', paymentId, { id: nextRefundId(), amount: 60_000 }))).status).toBe(200);
    expect(await balanceUnits(user.id)).toBe(5_000_000);
    expect((await documents(client)).filter((d) => d.kind === 'credit_note')).toHaveLength(1);
  });

  it('takes only what is left when the credits were spent, records the shortfall and tells the administrators', async () => {
    const { client, user, paymentId } = await paidBuyer(1000);
    const admin = new TestClient(server.url);
    expect((await admin.post('/api/auth/login', { username: TEST_ADMIN.username, password: TEST_ADMIN.password })).status).toBe(200);
    // ₹700 of the credits are gone (a deduction that is not a refund stands in for sends).
    expect((await admin.post(`/api/admin/users/${user.id}/credits`, { mode: 'deduct', amount: 700, reason: 'Correction of a manual credit' })).status).toBe(200);
    expect(await balanceUnits(user.id)).toBe(3_000_000);

    const refundId = nextRefundId();
    expect((await webhook(razorpay.refundWebhook('refund.processed', paymentId, { id: refundId, amount: 118_000 }))).status).toBe(200);
    expect(await balanceUnits(user.id)).toBe(0);
    const recorded = (await server.db('payment_refunds').where({ refundId }).first()) as Record<string, number | string>;
    expect({ credit: Number(recorded.creditUnits), debited: Number(recorded.debitedUnits), shortfall: Number(recorded.shortfallUnits) }).toEqual({ credit: 10_000_000, debited: 3_000_000, shortfall: 7_000_000 });
    // The money went back in full, so the credit note is for all of it.
    expect((await documents(client)).filter((d) => d.kind === 'credit_note').map((d) => d.total)).toEqual(['1180.00']);
    await expect
      .poll(async () => (await admin.get<TNotificationList>('/api/notifications')).body.notifications.filter((n) => n.kind === 'refund_shortfall').map((n) => n.message))
      .toContain(fillMessage(messages.notifications.refundShortfall, { amount: '₹1,180.00', username: user.username, taken: '₹300.00', credits: '₹1,000.00', shortfall: '₹700.00' }));
  });

  it('refuses a refund webhook with a bad signature', async () => {
    const { user, paymentId } = await paidBuyer(100);
    const forged = razorpay.refundWebhook('refund.processed', paymentId, { id: nextRefundId(), amount: 11_800 }, 'not-the-webhook-secret');
    expect((await webhook(forged)).status).toBe(400);
    expect(await balanceUnits(user.id)).toBe(1_000_000);
  });

  it('keeps the billing state in agreement with the GSTIN, prints the address and takes the state as the place of supply', async () => {
    const { client, user } = await signedInClient(server);
    const profile = { name: user.name, email: user.email, businessName: 'Asha Traders' };
    const mismatch = await client.put('/api/auth/update-profile', { ...profile, gstin: MAHARASHTRA_BUYER, billingState: '36' });
    expect(mismatch.status).toBe(400);
    expect(JSON.stringify(mismatch.body)).toContain(fillMessage(messages.profile.gstinStateMismatch, { gstinState: 'Maharashtra' }));
    expect((await client.put('/api/auth/update-profile', { ...profile, billingState: '99' })).status).toBe(400);
    const tooLong = await client.put('/api/auth/update-profile', { ...profile, billingAddress: 'x'.repeat(301) });
    expect(JSON.stringify(tooLong.body)).toContain(messages.profile.billingAddressTooLong);

    // No GSTIN (B2C) in Maharashtra: the state alone makes the supply inter-state.
    const saved = await client.put<{ user: TUser }>('/api/auth/update-profile', { ...profile, billingAddress: '12 MG Road, Pune 411001', billingState: '27' });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.user).toMatchObject({ billingAddress: '12 MG Road, Pune 411001', billingState: '27', gstin: null });
    // A GSTIN of another state cannot be added while the stored state stays.
    expect((await client.put('/api/auth/update-profile', { ...profile, gstin: TELANGANA_BUYER })).status).toBe(400);

    const created = (await client.post<TCreateOrderResponse>('/api/payments/razorpay/order', { amountCredits: 1000 })).body;
    expect(created.tax).toEqual({ taxable: '1000.00', cgst: '0.00', sgst: '0.00', igst: '180.00', total: '1180.00', place_of_supply: '27-Maharashtra' });
    expect((await client.post('/api/payments/razorpay/verify', razorpay.pay(created.orderId))).body).toMatchObject({ credited: true });
    const [invoice] = await documents(client);
    expect(invoice).toMatchObject({ place_of_supply: '27-Maharashtra', igst: '180.00', buyer_gstin: null });
    const text = pdfText((await client.get<string>(invoice!.pdf_url)).body);
    expect(text).toContain('12 MG Road, Pune 411001');
    expect(text).toContain('Maharashtra (code 27)');
  });
});
