/**
 * GST tax invoices of wallet top-ups: the tax priced into the order, the invoice's figures to the
 * paisa (intra- and inter-state, exclusive and inclusive), its PDF, credit notes of refunds,
 * the GSTR-1 exports and the numbering under concurrent top-ups (two instances on PostgreSQL).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { istDate } from '@shared/istTime';
import { financialYearOf } from '@shared/gst';
import { messages } from '@shared/messages';
import type { TCreateOrderResponse, TInvoiceRegisterResponse, TPaymentsConfig, TTaxDocument, TTaxDocumentsResponse } from '@shared/types';
import type { TWalletHistoryResponse } from '@shared/walletHistory';
import { ConfigError, loadConfig } from '../../server/src/config';
import { startServer, type RunningServer } from '../../server/src/server';
import { TestClient } from '../../server/test/client';
import { testDeployment, type TestDeployment } from '../../server/test/deployment';
import { buildUser, signedInClient } from '../../server/test/factories';
import { apiKeyFor } from '../../server/test/sending';
import { postgresUnavailable, startTestServer, testDatabaseKind, TEST_ADMIN, type TestServer } from '../../server/test/server';

/** Telangana: buyers in state 36 pay CGST + SGST, others IGST. */
const SUPPLIER_GSTIN = '36AAPFU0939F1ZW';
const TELANGANA_BUYER = '36AABCT1332L1ZF';
const MAHARASHTRA_BUYER = '27AAPFU0939F1ZV';
const GST_ENV = { GST_SUPPLIER_GSTIN: SUPPLIER_GSTIN, GST_SUPPLIER_NAME: 'Sandesh Technologies Pvt Ltd', GST_SUPPLIER_ADDRESS: 'Madhapur, Hyderabad, Telangana 500081', INVOICE_PREFIX: 'SND' };

/** The text of an uncompressed PDF's text operations, one line per operation (pdfkit writes glyphs as hex). */
function pdfText(pdf: string): string {
  return pdf
    .split('\n')
    .filter((line) => /\]\s*TJ$/.test(line))
    .map((line) => [...line.matchAll(/<([0-9a-f]*)>/g)].map(([, hex]) => Buffer.from(hex ?? '', 'hex').toString('latin1')).join(''))
    .join('\n');
}

async function order(client: TestClient, amountCredits: number): Promise<TCreateOrderResponse> {
  const response = await client.post<TCreateOrderResponse>('/api/payments/razorpay/order', { amountCredits });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

/** Pays an order through the sandbox checkout of the instance that made it. */
async function pay(baseUrl: string, client: TestClient, created: TCreateOrderResponse): Promise<void> {
  const signed = (await new TestClient(baseUrl).post<Record<string, string>>('/sandbox/razorpay/pay', { orderId: created.orderId })).body;
  const verify = await client.post('/api/payments/razorpay/verify', { orderId: signed.razorpay_order_id, paymentId: signed.razorpay_payment_id, signature: signed.razorpay_signature });
  expect(verify.body).toMatchObject({ credited: true });
}

async function invoices(client: TestClient): Promise<TTaxDocument[]> {
  const response = await client.get<TTaxDocumentsResponse>('/api/wallet/invoices');
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.invoices;
}

async function adminClient(baseUrl: string): Promise<TestClient> {
  const admin = new TestClient(baseUrl);
  expect((await admin.post('/api/auth/login', { username: TEST_ADMIN.username, password: TEST_ADMIN.password })).status).toBe(200);
  return admin;
}

async function withGstin(server: TestServer, gstin: string | null, businessName = 'Asha Traders'): Promise<{ client: TestClient; userId: number }> {
  const { client, user } = await signedInClient(server);
  if (gstin) expect((await client.put('/api/auth/update-profile', { name: user.name, email: user.email, businessName, gstin })).status).toBe(200);
  return { client, userId: user.id };
}

const thisMonth = () => istDate().slice(0, 7);
const fy = () => financialYearOf(istDate()).short;

describe.skipIf(postgresUnavailable)('GST tax invoices, exclusive mode (the default with a supplier GSTIN)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(GST_ENV);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('shows the tax before payment: ₹1,000 of credits costs ₹1,180, split CGST + SGST within the state', async () => {
    const { client } = await withGstin(server, TELANGANA_BUYER);
    const config = (await client.get<TPaymentsConfig>('/api/payments/config')).body;
    expect(config.gst).toEqual({ mode: 'exclusive', rateBasisPoints: 1800, supplierStateCode: '36', placeOfSupply: '36' });
    const created = await order(client, 1000);
    expect(created.amount).toBe(118_000);
    expect(created.amountCredits).toBe(1000);
    expect(created.tax).toEqual({ taxable: '1000.00', cgst: '90.00', sgst: '90.00', igst: '0.00', total: '1180.00', place_of_supply: '36-Telangana' });
  });

  it('issues a tax invoice per paid top-up with the figures to the paisa, its PDF for the owner only', async () => {
    const { client, userId } = await withGstin(server, TELANGANA_BUYER);
    await pay(server.url, client, await order(client, 1000));
    const [invoice] = await invoices(client);
    expect(invoice).toMatchObject({ kind: 'invoice', taxable: '1000.00', cgst: '90.00', sgst: '90.00', igst: '0.00', total: '1180.00', buyer_gstin: TELANGANA_BUYER, place_of_supply: '36-Telangana', against: null });
    expect(invoice!.number).toMatch(new RegExp(`^SND${fy()}/\\d{5}$`));
    expect(invoice!.number.length).toBeLessThanOrEqual(16);
    // The credits are the taxable value: ₹1,000, not the ₹1,180 paid.
    const wallet = (await server.db('users').where({ id: userId }).first('creditBalance')) as { creditBalance: number | string };
    expect(Number(wallet.creditBalance)).toBe(10_000_000);

    const pdf = await client.get<string>(invoice!.pdf_url);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toBe(`attachment; filename="${invoice!.number.replace('/', '-')}.pdf"`);
    const text = pdfText(pdf.body);
    for (const expected of ['Tax Invoice', invoice!.number, SUPPLIER_GSTIN, TELANGANA_BUYER, 'Asha Traders', '36-Telangana', 'CGST @ 9%', 'SGST @ 9%', 'INR 1,000.00', 'INR 90.00', 'INR 1,180.00', 'Indian Rupees One Thousand One Hundred Eighty Only', '998319', 'B2B']) {
      expect(text, expected).toContain(expected);
    }
    // The wallet history's top-up downloads the tax invoice instead of the receipt.
    const history = (await client.get<TWalletHistoryResponse>('/api/wallet/history?kind=topup')).body;
    expect(history.entries[0]!.receiptUrl).toBe(invoice!.pdf_url);

    // The public API lists them by key, for an accounting system.
    const key = await apiKeyFor(client);
    const byKey = await new TestClient(server.url).withHeaders({ 'X-API-Key': key }).get<TTaxDocumentsResponse>('/api/wallet/invoices');
    expect(byKey.status).toBe(200);
    expect(byKey.body.invoices.map((d) => d.number)).toEqual([invoice!.number]);

    const { client: stranger } = await signedInClient(server);
    expect((await stranger.get(invoice!.pdf_url)).status).toBe(404);
    expect(await invoices(stranger)).toEqual([]);
    expect((await client.get('/api/wallet/invoices/abc/pdf')).status).toBe(404);
    expect((await new TestClient(server.url).get('/api/wallet/invoices')).status).toBe(401);
  });

  it('charges IGST to a buyer in another state, and treats a buyer without GSTIN as B2C in the supplier state', async () => {
    const { client: mumbai } = await withGstin(server, MAHARASHTRA_BUYER);
    expect((await order(mumbai, 2500)).tax).toEqual({ taxable: '2500.00', cgst: '0.00', sgst: '0.00', igst: '450.00', total: '2950.00', place_of_supply: '27-Maharashtra' });
    const created = await order(mumbai, 2500);
    await pay(server.url, mumbai, created);
    expect((await invoices(mumbai))[0]).toMatchObject({ taxable: '2500.00', cgst: '0.00', sgst: '0.00', igst: '450.00', total: '2950.00', place_of_supply: '27-Maharashtra' });
    const text = pdfText((await mumbai.get<string>((await invoices(mumbai))[0]!.pdf_url)).body);
    expect(text).toContain('IGST @ 18%');
    expect(text).toContain('Indian Rupees Two Thousand Nine Hundred Fifty Only');

    const { client: consumer } = await withGstin(server, null);
    await pay(server.url, consumer, await order(consumer, 7));
    expect((await invoices(consumer))[0]).toMatchObject({ taxable: '7.00', cgst: '0.63', sgst: '0.63', igst: '0.00', total: '8.26', buyer_gstin: null, place_of_supply: '36-Telangana' });
    expect(pdfText((await consumer.get<string>((await invoices(consumer))[0]!.pdf_url)).body)).toContain('B2C');
  });

  it('issues a credit note against the invoice when an administrator deducts with the reason refund', async () => {
    const { client, userId } = await withGstin(server, MAHARASHTRA_BUYER);
    await pay(server.url, client, await order(client, 1000));
    const [invoice] = await invoices(client);
    const admin = await adminClient(server.url);
    // A deduction for another reason is not a refund: no credit note.
    expect((await admin.post(`/api/admin/users/${userId}/credits`, { mode: 'deduct', amount: 100, reason: 'Correction of a manual credit' })).status).toBe(200);
    expect(await invoices(client)).toHaveLength(1);
    expect((await admin.post(`/api/admin/users/${userId}/credits`, { mode: 'deduct', amount: 250.5, reason: 'Refund: duplicate payment' })).status).toBe(200);
    const [note] = await invoices(client);
    expect(note).toMatchObject({ kind: 'credit_note', against: invoice!.number, taxable: '250.50', cgst: '0.00', sgst: '0.00', igst: '45.09', total: '295.59', buyer_gstin: MAHARASHTRA_BUYER, place_of_supply: '27-Maharashtra' });
    expect(note!.number).toMatch(new RegExp(`^SNDCN${fy()}/\\d{5}$`));
    const text = pdfText((await client.get<string>(note!.pdf_url)).body);
    expect(text).toContain('Credit Note');
    expect(text).toContain(invoice!.number);
    expect(text).toContain('Refund: duplicate payment');
    // A refund beyond what the invoices still hold (credits the administrator gave are not invoiced) is credited only up to it.
    expect((await admin.post(`/api/admin/users/${userId}/credits`, { mode: 'add', amount: 5000, reason: 'Goodwill credit' })).status).toBe(200);
    expect((await admin.post(`/api/admin/users/${userId}/credits`, { mode: 'deduct', amount: 5000, reason: 'refund' })).status).toBe(200);
    const notes = (await invoices(client)).filter((d) => d.kind === 'credit_note');
    expect(notes.map((d) => d.taxable)).toEqual(['749.50', '250.50']);
  });

  it('exports the month in GSTR-1 columns: B2B with GSTIN, B2C summarised by state, credit notes', async () => {
    const { client: b2b } = await withGstin(server, '29AAGCB7383J1Z4', 'Bengaluru Buyer Ltd');
    await pay(server.url, b2b, await order(b2b, 300));
    const admin = await adminClient(server.url);
    const month = thisMonth();
    const json = await admin.get<TInvoiceRegisterResponse>(`/api/admin/invoices?month=${month}&format=json`);
    expect(json.status).toBe(200);
    const mine = json.body.documents.find((d) => d.buyer_gstin === '29AAGCB7383J1Z4');
    expect(mine).toMatchObject({ buyer_name: 'Bengaluru Buyer Ltd', taxable: '300.00', igst: '54.00', total: '354.00' });

    const b2bCsv = await admin.get<string>(`/api/admin/invoices?month=${month}&format=csv&section=b2b`);
    expect(b2bCsv.status).toBe(200);
    expect(b2bCsv.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = b2bCsv.body.trim().split('\r\n');
    expect(lines[0]).toBe('GSTIN/UIN of Recipient,Receiver Name,Invoice Number,Invoice date,Invoice Value,Place Of Supply,Reverse Charge,Applicable % of Tax Rate,Invoice Type,E-Commerce GSTIN,Rate,Taxable Value,Cess Amount');
    const row = lines.find((line) => line.startsWith('29AAGCB7383J1Z4,'));
    expect(row).toMatch(new RegExp(`^29AAGCB7383J1Z4,Bengaluru Buyer Ltd,${mine!.number},\\d{2}-[A-Z][a-z]{2}-\\d{4},354.00,29-Karnataka,N,,Regular B2B,,18,300.00,0.00$`));

    // B2C small: one line per place of supply and rate, the taxable values of unregistered buyers added up.
    const b2cs = (await admin.get<string>(`/api/admin/invoices?month=${month}&format=csv&section=b2cs`)).body.trim().split('\r\n');
    expect(b2cs[0]).toBe('Type,Place Of Supply,Applicable % of Tax Rate,Rate,Taxable Value,Cess Amount,E-Commerce GSTIN');
    const expectedB2c = json.body.documents.filter((d) => d.buyer_gstin === null && d.kind === 'invoice').reduce((sum, d) => sum + Math.round(Number(d.taxable) * 100), 0);
    expect(b2cs.slice(1)).toEqual([`OE,36-Telangana,,18,${(expectedB2c / 100).toFixed(2)},0.00,`]);

    const cdnr = (await admin.get<string>(`/api/admin/invoices?month=${month}&format=csv&section=cdnr`)).body.trim().split('\r\n');
    expect(cdnr[0]).toContain('Note Number');
    expect(cdnr.slice(1).every((line) => line.startsWith(`${MAHARASHTRA_BUYER},`) && line.includes(',C,27-Maharashtra,N,Regular B2B,'))).toBe(true);
    expect(cdnr.length).toBeGreaterThan(1);

    expect((await admin.get(`/api/admin/invoices?month=2026-13`)).status).toBe(400);
    const { client: user } = await signedInClient(server);
    expect((await user.get(`/api/admin/invoices?month=${month}`)).status).toBe(403);
  });

  it('gives a monthly statement with the invoices and the ledger, as PDF and CSV, to the owner and the administrator', async () => {
    const { client, userId } = await withGstin(server, TELANGANA_BUYER);
    await pay(server.url, client, await order(client, 1000));
    const [invoice] = await invoices(client);
    const csv = await client.get<string>(`/api/wallet/statement?month=${thisMonth()}&format=csv`);
    expect(csv.status).toBe(200);
    const lines = csv.body.trim().split('\r\n');
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^Tax invoice,[^,]+,${invoice!.number},36-Telangana,1000.00,90.00,90.00,0.00,1180.00,$`)));
    expect(lines).toContainEqual(expect.stringMatching(/^Ledger,[^,]+,TOPUP_ADD,.*,1000\.00,1000\.00$/));
    const pdf = await client.get<string>(`/api/wallet/statement?month=${thisMonth()}`);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdfText(pdf.body)).toContain(invoice!.number);
    const admin = await adminClient(server.url);
    const adminPdf = await admin.get<string>(`/api/admin/users/${userId}/statement?month=${thisMonth()}&format=pdf`);
    expect(pdfText(adminPdf.body)).toContain(invoice!.number);
    const listed = (await admin.get<TTaxDocumentsResponse>(`/api/admin/users/${userId}/invoices`)).body.invoices;
    expect(listed.map((d) => d.number)).toEqual([invoice!.number]);
    expect((await admin.get<string>(listed[0]!.pdf_url)).status).toBe(200);
  });

  it('refuses a GSTIN with a state code that does not exist, in the profile and in the configuration', async () => {
    const { client, user } = await signedInClient(server);
    const refused = await client.put('/api/auth/update-profile', { name: user.name, email: user.email, gstin: '99AAPFU0939F1ZK' });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ field: 'gstin', error: messages.profile.gstinInvalid });
    expect(() => loadConfig({ GST_SUPPLIER_GSTIN: '99AAPFU0939F1ZK' })).toThrow(ConfigError);
    expect(() => loadConfig({ GST_SUPPLIER_GSTIN: '36AAPFU0939F1ZV' })).toThrow(/GST_SUPPLIER_GSTIN/);
    expect(() => loadConfig({ GST_MODE: 'inclusive' })).toThrow(/GST_MODE: inclusive needs GST_SUPPLIER_GSTIN/);
    expect(loadConfig({}).gst).toBeNull();
    expect(loadConfig({ GST_SUPPLIER_GSTIN: SUPPLIER_GSTIN }).gst).toMatchObject({ mode: 'exclusive', supplierStateCode: '36', rateBasisPoints: 1800 });
  });
});

describe.skipIf(postgresUnavailable)('GST tax invoices, inclusive mode', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ ...GST_ENV, GST_MODE: 'inclusive' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('takes ₹1,000 paid as ₹847.46 of credits and ₹152.54 of GST, to the paisa', async () => {
    const { client, userId } = await withGstin(server, TELANGANA_BUYER);
    const created = await order(client, 1000);
    expect(created.amount).toBe(100_000);
    expect(created.amountCredits).toBe(847.46);
    expect(created.tax).toEqual({ taxable: '847.46', cgst: '76.27', sgst: '76.27', igst: '0.00', total: '1000.00', place_of_supply: '36-Telangana' });
    await pay(server.url, client, created);
    expect((await invoices(client))[0]).toMatchObject({ taxable: '847.46', cgst: '76.27', sgst: '76.27', igst: '0.00', total: '1000.00' });
    const row = (await server.db('users').where({ id: userId }).first('creditBalance')) as { creditBalance: number | string };
    expect(Number(row.creditBalance)).toBe(8_474_600);
    const text = pdfText((await client.get<string>((await invoices(client))[0]!.pdf_url)).body);
    expect(text).toContain('Indian Rupees One Thousand Only');
  });

  it('takes IGST out of the amount paid by a buyer in another state', async () => {
    const { client } = await withGstin(server, MAHARASHTRA_BUYER);
    expect((await order(client, 1000)).tax).toEqual({ taxable: '847.46', cgst: '0.00', sgst: '0.00', igst: '152.54', total: '1000.00', place_of_supply: '27-Maharashtra' });
  });
});

describe.skipIf(postgresUnavailable)('GST off (no supplier GSTIN): today’s receipts', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('charges the credits without tax and issues no tax invoice', async () => {
    const { client } = await signedInClient(server);
    expect((await client.get<TPaymentsConfig>('/api/payments/config')).body.gst).toBeNull();
    const created = await order(client, 1000);
    expect(created).toMatchObject({ amount: 100_000, amountCredits: 1000, tax: null });
    await pay(server.url, client, created);
    expect(await invoices(client)).toEqual([]);
    const history = (await client.get<TWalletHistoryResponse>('/api/wallet/history?kind=topup')).body;
    expect(history.entries[0]!.receiptUrl).toMatch(/^\/api\/wallet\/topups\/\d+\/receipt\.pdf$/);
  });
});

const TOP_UPS_PER_INSTANCE = 12;

describe.skipIf(postgresUnavailable)('invoice numbering under concurrent top-ups', () => {
  let deployment: TestDeployment;
  const instances: RunningServer[] = [];

  beforeAll(async () => {
    deployment = testDeployment({ name: 'invoices', database: testDatabaseKind(), env: { ...GST_ENV, LOG_CLEANUP_ENABLED: 'false' } });
    const config = loadConfig({ ...deployment.env, PORT: '0' });
    // PostgreSQL: two instances behind one load balancer, one after the other so the first migrates.
    // SQLite is one process's database: its concurrency is within that process.
    instances.push(await startServer(config));
    if (deployment.database === 'postgres') instances.push(await startServer(config));
  }, 60_000);

  afterAll(async () => {
    for (const instance of instances) await instance.close();
    await deployment?.close();
  });

  it('numbers every invoice once, with no gap and no repeat, whichever instance credits it', async () => {
    const first = instances[0]!;
    const testServer = { ...first, dataDir: deployment.dataDir } as TestServer;
    const buyers = await Promise.all(
      instances.flatMap((instance) =>
        Array.from({ length: TOP_UPS_PER_INSTANCE }, async () => {
          const user = await buildUser(testServer);
          const client = new TestClient(instance.url);
          expect((await client.post('/api/auth/login', { username: user.username, password: user.plainPassword })).status).toBe(200);
          return { instance, client, created: await order(client, 100) };
        }),
      ),
    );
    // Every payment verified at once, across the instances.
    await Promise.all(buyers.map(({ instance, client, created }) => pay(instance.url, client, created)));
    const rows = (await first.db('tax_documents').where({ series: 'invoice' }).orderBy('sequence').select('number', 'sequence', 'financialYear')) as { number: string; sequence: number | string; financialYear: string }[];
    expect(rows).toHaveLength(buyers.length);
    expect(rows.map((r) => Number(r.sequence))).toEqual(Array.from({ length: buyers.length }, (_, index) => index + 1));
    expect(new Set(rows.map((r) => r.number)).size).toBe(buyers.length);
    const counter = (await first.db('tax_document_counters').where({ series: 'invoice' }).first('lastSequence')) as { lastSequence: number | string };
    expect(Number(counter.lastSequence)).toBe(buyers.length);
  }, 120_000);
});
