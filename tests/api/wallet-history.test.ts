import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatIstTime, istDate } from '@shared/istTime';
import { fillMessage, messages } from '@shared/messages';
import type { TCreateOrderResponse, TUser } from '@shared/types';
import type { TWalletHistoryEntry, TWalletHistoryResponse } from '@shared/walletHistory';
import { unitsToRupees } from '@shared/money';
import { TestClient } from '../../server/test/client';
import { buildTemplate, signedInClient } from '../../server/test/factories';
import { quickSend } from '../../server/test/sending';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';

/** The text of an uncompressed PDF's text operations, one line per operation (pdfkit writes glyphs as hex). */
function pdfText(pdf: string): string {
  return pdf
    .split('\n')
    .filter((line) => /\]\s*TJ$/.test(line))
    .map((line) => [...line.matchAll(/<([0-9a-f]*)>/g)].map(([, hex]) => Buffer.from(hex ?? '', 'hex').toString('latin1')).join(''))
    .join('\n');
}

async function topUp(server: TestServer, client: TestClient, amountCredits: number): Promise<void> {
  const order = (await client.post<TCreateOrderResponse>('/api/payments/razorpay/order', { amountCredits })).body;
  const signed = (await new TestClient(server.url).post<Record<string, string>>('/sandbox/razorpay/pay', { orderId: order.orderId })).body;
  const verify = await client.post('/api/payments/razorpay/verify', { orderId: signed.razorpay_order_id, paymentId: signed.razorpay_payment_id, signature: signed.razorpay_signature });
  expect(verify.body).toMatchObject({ credited: true });
}

async function history(client: TestClient, query = ''): Promise<TWalletHistoryResponse> {
  const response = await client.get<TWalletHistoryResponse>(`/api/wallet/history${query}`);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

describe.skipIf(postgresUnavailable)('GET /api/wallet/history and top-up receipts', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  /** A user with an opening balance, two top-ups, a send and a refund of part of it. */
  async function walletWithEverything() {
    const { client, user } = await signedInClient(server, { creditRupees: 100 });
    await topUp(server, client, 1000);
    await topUp(server, client, 500);
    const template = await buildTemplate(server, user, { body: 'Hello {{1}}' });
    const accepted = await quickSend(client, { template, recipients: ['919876543210', '919876543211'], variables: { '1': 'Asha' } });
    // One of its messages finally fails and is refunded the way every refund is.
    const [message] = (await server.db('messages').where({ campaignId: accepted.campaignId }).orderBy('id').limit(1).select('id', 'priceUnits')) as { id: number; priceUnits: number }[];
    await server.db('messages').where({ id: message!.id }).update({ status: 'failed', claimToken: null });
    const refund = await server.db.transaction((trx) => server.services.wallet.refundMessages(trx, [Number(message!.id)]));
    expect(refund.messageIds).toEqual([Number(message!.id)]);
    return { client, user, refundedRupees: unitsToRupees(Number(message!.priceUnits)) };
  }

  it('calls the charge of a campaign still waiting for its time scheduled, with its time, not sent', async () => {
    const { client, user } = await signedInClient(server, { creditRupees: 100 });
    const template = await buildTemplate(server, user, { body: 'Hello {{1}}' });
    const at = new Date(Date.now() + 3 * 60 * 60 * 1000);
    const number = (await client.get<{ data: { phone_number_id: string }[] }>('/api/whatsapp/numbers')).body.data[0]!;
    const accepted = await client.post<{ data: { campaignId: number; scheduledAt?: string } }>('/api/whatsapp/quick-send', {
      phone_number_id: number.phone_number_id,
      template_name: template.name,
      language: template.language,
      recipients_text: '919876543210',
      variables: { '1': 'Asha' },
      scheduledAt: at.toISOString(),
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body.data.scheduledAt).toBe(at.toISOString());
    const send = (await history(client)).entries.find((entry) => entry.kind === 'send');
    expect(send?.title).toBe(fillMessage(messages.walletHistory.scheduledTitle, { time: formatIstTime(at) }));
    expect(send?.title).not.toMatch(/sent/i);
  });

  it('lists every entry newest first in plain words, with ₹ amounts and a running balance that adds up', async () => {
    const { client } = await walletWithEverything();
    const { entries, nextCursor } = await history(client);
    expect(nextCursor).toBeNull();
    expect(entries.map((entry) => entry.kind)).toEqual(['refund', 'send', 'topup', 'topup', 'adjustment']);
    expect(entries.map((entry) => entry.title)).toEqual(['Refund for a message not delivered', 'Messages sent', 'Wallet top-up', 'Wallet top-up', 'Opening balance']);
    const oldestFirst = [...entries].reverse();
    let balance = 0;
    for (const entry of oldestFirst) {
      balance = Math.round((balance + entry.amount) * 100) / 100;
      expect(entry.balanceAfter).toBe(balance);
    }
    const me = (await client.get<{ user: TUser }>('/api/auth/me')).body.user;
    expect(entries[0]!.balanceAfter).toBe(me.creditBalance);
    const firstTopUp = oldestFirst[1]!;
    expect(firstTopUp).toMatchObject({ amount: 1000, amountText: '+₹1,000.00', balanceAfter: 1100, balanceAfterText: '₹1,100.00', receiptUrl: `/api/wallet/topups/${firstTopUp.id}/receipt.pdf` });
    const send = entries[1]!;
    expect(send.amount).toBeLessThan(0);
    expect(send.amountText).toMatch(/^-₹\d/);
    expect(send.receiptUrl).toBeNull();
    expect(send.campaignId).toEqual(expect.any(Number));
  });

  it('pages by cursor without gaps or repeats, and filters by kind and IST day', async () => {
    const { client, refundedRupees } = await walletWithEverything();
    const all = (await history(client)).entries.map((entry) => entry.id);
    const walked: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: TWalletHistoryResponse = await history(client, `?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.entries.length).toBeLessThanOrEqual(2);
      walked.push(...page.entries.map((entry: TWalletHistoryEntry) => entry.id));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor && pages < 10);
    expect(walked).toEqual(all);
    expect(pages).toBe(3);

    expect((await history(client, '?kind=topup')).entries.map((entry) => entry.amount)).toEqual([500, 1000]);
    expect((await history(client, '?kind=refund')).entries.map((entry) => entry.amount)).toEqual([refundedRupees]);
    const today = istDate();
    expect((await history(client, `?from=${today}&to=${today}`)).entries).toHaveLength(5);
    const yesterday = istDate(new Date(Date.now() - 86_400_000));
    expect((await history(client, `?to=${yesterday}`)).entries).toHaveLength(0);

    const backwards = await client.get('/api/wallet/history?from=2026-02-02&to=2026-02-01');
    expect(backwards.status).toBe(400);
    expect(backwards.body).toMatchObject({ error: messages.walletHistory.dateRangeInvalid });
    expect((await client.get('/api/wallet/history?kind=gift')).status).toBe(400);
    expect((await new TestClient(server.url).get('/api/wallet/history')).status).toBe(401);
  });

  it('keeps business name and GSTIN in the profile, refusing a GSTIN with a wrong check character', async () => {
    const { client, user } = await signedInClient(server);
    const wrong = await client.put('/api/auth/update-profile', { name: user.name, email: user.email, gstin: '27AAPFU0939F1ZA' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ field: 'gstin', error: messages.profile.gstinInvalid });
    const saved = await client.put<{ user: TUser }>('/api/auth/update-profile', { name: user.name, email: user.email, businessName: ' Asha Traders ', gstin: '27aapfu0939f1zv' });
    expect(saved.status).toBe(200);
    expect(saved.body.user).toMatchObject({ businessName: 'Asha Traders', gstin: '27AAPFU0939F1ZV' });
    // Left out: kept. Blank: cleared.
    expect((await client.put<{ user: TUser }>('/api/auth/update-profile', { name: 'New Name', email: user.email })).body.user).toMatchObject({ businessName: 'Asha Traders', gstin: '27AAPFU0939F1ZV' });
    expect((await client.put<{ user: TUser }>('/api/auth/update-profile', { name: 'New Name', email: user.email, businessName: '', gstin: '' })).body.user).toMatchObject({ businessName: null, gstin: null });
  });

  it('gives the owner a PDF receipt per top-up with INR amounts, business name and GSTIN; 404 to anyone else', async () => {
    const { client, user } = await signedInClient(server);
    await client.put('/api/auth/update-profile', { name: user.name, email: user.email, businessName: 'Asha Traders', gstin: '27AAPFU0939F1ZV' });
    await topUp(server, client, 100000);
    const [entry] = (await history(client, '?kind=topup')).entries;
    const receipt = await client.get<string>(entry!.receiptUrl!);
    expect(receipt.status).toBe(200);
    expect(receipt.headers.get('content-type')).toBe('application/pdf');
    expect(receipt.headers.get('content-disposition')).toMatch(/^attachment; filename="TOPUP-\d{6,}\.pdf"$/);
    expect(receipt.body.startsWith('%PDF-')).toBe(true);
    const text = pdfText(receipt.body);
    expect(text).toContain('Payment Receipt');
    expect(text).toContain('INR 1,00,000.00');
    expect(text).toContain('Asha Traders');
    expect(text).toContain('27AAPFU0939F1ZV');
    expect(text).toMatch(/IST/);

    const { client: stranger } = await signedInClient(server);
    expect((await stranger.get(entry!.receiptUrl!)).status).toBe(404);
    expect((await client.get('/api/wallet/topups/999999999/receipt.pdf')).status).toBe(404);
    expect((await client.get('/api/wallet/topups/abc/receipt.pdf')).status).toBe(404);
    const { client: sender } = await walletWithEverything();
    const [send] = (await history(sender, '?kind=send')).entries;
    expect((await sender.get(`/api/wallet/topups/${send!.id}/receipt.pdf`)).status).toBe(404);
  });
});
