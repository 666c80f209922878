import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@shared/messages';
import { formatReportCost } from '@shared/reports';
import type { TReportRow, TReportsPage, TReportsSummary } from '@shared/schemas/reports';
import type { TCampaignAccepted, TSenderNumber } from '@shared/schemas/sending';
import type { User } from '../../server/src/models';
import { SESSION_COOKIE } from '../../server/src/middleware/auth';
import { planQuery } from '../../server/src/reports/plan';
import { ReportPositions } from '../../server/src/reports/positions';
import { ReportService } from '../../server/src/reports/service';
import { RecipientNumberIndex, SQLITE_NUMBERS_SQL } from '../../server/src/reports/recipientNumbers';
import { ReportDb } from '../../server/src/reports/sql';
import { TestClient } from '../../server/test/client';
import { buildTemplate, signedInClient } from '../../server/test/factories';
import { pollUntil, waitForCampaign } from '../../server/test/polling';
import { postgresUnavailable, startTestServer, testDatabaseKind, type TestServer } from '../../server/test/server';

interface SeedRow {
  recipient: string;
  status: 'queued' | 'sending' | 'unknown' | 'sent' | 'delivered' | 'read' | 'failed' | 'duplicate' | 'suppressed';
  error?: string;
  deliveredAt?: string;
  readAt?: string;
}

const LABEL = messages.reports.statuses;
const HEADINGS = ['Template', 'Recipient', 'Status', 'Delivered At (IST)', 'Read At (IST)', 'Error', 'Sent At (IST)', 'Campaign', 'Cost (INR)', 'Message ID'];

/** Today in India, as the export file names carry it. */
function istToday(): string {
  return new Date(Date.now() + 330 * 60_000).toISOString().slice(0, 10);
}

describe.skipIf(postgresUnavailable)('GET /api/whatsapp/reports', () => {
  let server: TestServer;
  let owner: { client: TestClient; user: User };
  let other: { client: TestClient; user: User };
  /** Owner's seeded row ids by name (r1..r17), and all of them newest first. */
  const ids: Record<string, number> = {};
  let newestFirst: number[] = [];

  beforeAll(async () => {
    server = await startTestServer();
    owner = await signedInClient(server);
    other = await signedInClient(server);
    await seedCampaign(owner.user, 'order_update', 'Diwali, "big" sale', '2026-01-05T04:30:00.000Z', [
      { recipient: '919811100001', status: 'read', deliveredAt: '2026-01-05T05:00:00.000Z', readAt: '2026-01-05T05:10:00.000Z' },
      { recipient: '919811100002', status: 'delivered', deliveredAt: '2026-01-05T05:00:00.000Z' },
      { recipient: '919811100003', status: 'sent' },
      { recipient: '919811100004', status: 'failed', error: 'Message undeliverable, "retry" later' },
      { recipient: '919811100005', status: 'suppressed', error: 'Recipient opted out of messages from this business' },
      { recipient: '919811100006', status: 'duplicate', error: 'Duplicate Blocked' },
      { recipient: '919811100007', status: 'queued', error: 'Rate limit hit' },
      { recipient: '919811100008', status: 'sending' },
    ]).then((rows) => rows.forEach((id, i) => (ids[`r${i + 1}`] = id)));
    // 23:59:59.999 on 10 January in India.
    await seedCampaign(owner.user, 'प्रचार_offer', 'त्योहार ऑफ़र', '2026-01-10T18:29:59.999Z', [
      { recipient: '447700900001', status: 'failed', error: '=HYPERLINK("http://x.example","y")' },
      { recipient: '447700900002', status: 'failed', error: '+91 blocked' },
      { recipient: '447700900003', status: 'failed', error: '-1 credits' },
      { recipient: '447700900004', status: 'failed', error: '@SUM(A1)' },
      { recipient: '447700900005', status: 'failed', error: '\tTabbed' },
      { recipient: '919811100001', status: 'read', deliveredAt: '2026-01-10T18:31:00.000Z', readAt: '2026-01-10T18:40:00.000Z' },
    ]).then((rows) => rows.forEach((id, i) => (ids[`r${i + 9}`] = id)));
    // Midnight of 11 January in India.
    await seedCampaign(owner.user, 'order_update', 'Follow-up', '2026-01-10T18:30:00.000Z', [
      { recipient: '919822200001', status: 'delivered', deliveredAt: '2026-01-11T02:00:00.000Z' },
      { recipient: '919822200002', status: 'read', deliveredAt: '2026-01-11T02:00:00.000Z', readAt: '2026-01-11T03:00:00.000Z' },
      { recipient: '919822200003', status: 'failed', error: 'Line one\nLine two' },
    ]).then((rows) => rows.forEach((id, i) => (ids[`r${i + 15}`] = id)));
    await seedCampaign(other.user, 'b_secret', 'Not yours', '2026-01-06T04:30:00.000Z', [
      { recipient: '919811100001', status: 'read' },
      { recipient: '919811100009', status: 'failed', error: 'Nope' },
    ]);
    newestFirst = ['r17', 'r16', 'r15', 'r14', 'r13', 'r12', 'r11', 'r10', 'r9', 'r8', 'r7', 'r6', 'r5', 'r4', 'r3', 'r2', 'r1'].map((name) => ids[name] as number);
  });
  afterAll(async () => {
    await server?.close();
  });

  /** Inserts a campaign and its message rows directly, as acceptance would have stored them. */
  async function seedCampaign(user: User, template: string, name: string, createdAt: string, rows: readonly SeedRow[]): Promise<number[]> {
    const sender = await server.services.senderNumbers.ensureSandbox(user.id);
    const [inserted] = (await server
      .db('campaigns')
      .insert({
        userId: user.id,
        senderNumberId: sender.id,
        name,
        source: 'bulk',
        templateName: template,
        templateLanguage: 'en_US',
        category: 'MARKETING',
        priceUnits: 8000,
        status: 'completed',
        totalRecipients: rows.length,
        billableCount: rows.length,
        totalCostUnits: 8000 * rows.length,
        createdAt,
        updatedAt: createdAt,
      })
      .returning('id')) as ({ id: number } | number)[];
    const campaignId = typeof inserted === 'object' ? inserted.id : (inserted as number);
    const messageIds: number[] = [];
    for (let start = 0; start < rows.length; start += 200) {
      const chunk = rows.slice(start, start + 200).map((row, i) => ({
        campaignId,
        userId: user.id,
        recipient: row.recipient,
        status: row.status,
        priceUnits: 8000,
        dedupeKey: `${campaignId}-${start + i}`,
        errorMessage: row.error ?? null,
        attempts: 1,
        refunded: false,
        createdAt,
        updatedAt: createdAt,
        sentAt: ['sent', 'delivered', 'read'].includes(row.status) ? createdAt : null,
        deliveredAt: row.deliveredAt ?? null,
        readAt: row.readAt ?? null,
      }));
      const returned = (await server.db('messages').insert(chunk).returning('id')) as ({ id: number | string } | number)[];
      messageIds.push(...returned.map((r) => Number(typeof r === 'object' ? r.id : r)));
    }
    return messageIds;
  }

  async function list(client: TestClient, query: string): Promise<TReportsPage> {
    const res = await client.get<{ success: boolean; data: TReportsPage }>(`/api/whatsapp/reports${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.success).toBe(true);
    return res.body.data;
  }

  async function download(client: TestClient, query: string): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
    const res = await fetch(`${server.url}/api/whatsapp/reports${query}`, { headers: { Cookie: `${SESSION_COOKIE}=${client.cookie(SESSION_COOKIE)}` } });
    return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
  }

  function parseCsv(bytes: Buffer): string[][] {
    const text = bytes.toString('utf8');
    expect(text.startsWith('\uFEFF')).toBe(true);
    const parsed = Papa.parse<string[]>(text.slice(1), { skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    return parsed.data;
  }

  /** What the table and both exports show for the owner's rows, newest first, written out by hand. */
  const ownerCells: string[][] = [
    ['order_update', '919822200003', LABEL.failed, 'Not delivered', 'Not read', 'Line one\nLine two'],
    ['order_update', '919822200002', LABEL.read, '2026-01-11 07:30:00', '2026-01-11 08:30:00', 'Success'],
    ['order_update', '919822200001', LABEL.delivered, '2026-01-11 07:30:00', 'Not read', 'Success'],
    ['प्रचार_offer', '919811100001', LABEL.read, '2026-01-11 00:01:00', '2026-01-11 00:10:00', 'Success'],
    ['प्रचार_offer', '447700900005', LABEL.failed, 'Not delivered', 'Not read', '\tTabbed'],
    ['प्रचार_offer', '447700900004', LABEL.failed, 'Not delivered', 'Not read', '@SUM(A1)'],
    ['प्रचार_offer', '447700900003', LABEL.failed, 'Not delivered', 'Not read', '-1 credits'],
    ['प्रचार_offer', '447700900002', LABEL.failed, 'Not delivered', 'Not read', '+91 blocked'],
    ['प्रचार_offer', '447700900001', LABEL.failed, 'Not delivered', 'Not read', '=HYPERLINK("http://x.example","y")'],
    ['order_update', '919811100008', 'PENDING', 'Not delivered', 'Not read', 'Success'],
    ['order_update', '919811100007', 'PENDING', 'Not delivered', 'Not read', 'Success'],
    ['order_update', '919811100006', 'Duplicate Blocked', 'Not delivered', 'Not read', 'Duplicate Blocked'],
    ['order_update', '919811100005', LABEL.failed, 'Not delivered', 'Not read', 'Recipient opted out of messages from this business'],
    ['order_update', '919811100004', LABEL.failed, 'Not delivered', 'Not read', 'Message undeliverable, "retry" later'],
    ['order_update', '919811100003', LABEL.sent, 'Not delivered', 'Not read', 'Success'],
    ['order_update', '919811100002', LABEL.delivered, '2026-01-05 10:30:00', 'Not read', 'Success'],
    ['order_update', '919811100001', LABEL.read, '2026-01-05 10:30:00', '2026-01-05 10:40:00', 'Success'],
  ];

  /**
   * The export's own columns for the owner's rows, newest first: sent time in IST (only rows the
   * provider took), campaign name, cost (opted-out and duplicate rows are not charged) and the
   * integrator API's message id.
   */
  function ownerExportExtras(): string[][] {
    const campaignOf = (n: number) => (n <= 8 ? { name: 'Diwali, "big" sale', sentAt: '2026-01-05 10:00:00' } : n <= 14 ? { name: 'त्योहार ऑफ़र', sentAt: '2026-01-10 23:59:59' } : { name: 'Follow-up', sentAt: '2026-01-11 00:00:00' });
    const sentRows = new Set([1, 2, 3, 14, 15, 16]);
    return [17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1].map((n) => [
      sentRows.has(n) ? campaignOf(n).sentAt : 'Not sent',
      campaignOf(n).name,
      n === 5 || n === 6 ? '0.00' : '0.80',
      `msg_${ids[`r${n}`]}`,
    ]);
  }

  it('answers 401 without a session', async () => {
    const visitor = new TestClient(server.url);
    for (const path of ['/api/whatsapp/reports', '/api/whatsapp/reports?export=csv', '/api/whatsapp/reports/summary', '/api/whatsapp/reports/templates']) {
      expect((await visitor.get(path)).status).toBe(401);
    }
  });

  it('lists the signed-in user’s messages newest first, as report rows', async () => {
    const page = await list(owner.client, '');
    expect(page).toMatchObject({ total: 17, page: 1, limit: 50, totalPages: 1 });
    expect(page.reports.map((r) => r.id)).toEqual(newestFirst);
    const byId = new Map(page.reports.map((r) => [r.id, r]));
    expect(byId.get(ids.r1 as number)).toEqual({
      id: ids.r1 as number,
      template_used: 'order_update',
      recipient_number: '919811100001',
      status: 'read',
      delivered_at: '2026-01-05T05:00:00.000Z',
      read_at: '2026-01-05T05:10:00.000Z',
      error_message: null,
      sent_at: '2026-01-05T04:30:00.000Z',
      created_at: '2026-01-05T04:30:00.000Z',
      campaign_id: expect.any(Number),
      campaign_name: 'Diwali, "big" sale',
      // Our category beside Meta's, which no status has reported for this message yet.
      category: 'MARKETING',
      meta_category: null,
      meta_billable: null,
    } satisfies TReportRow);
    const shown = (name: string) => byId.get(ids[name] as number);
    // queued and sending are pending (a retry's reason is not an error yet); suppressed is failed with its reason.
    expect(shown('r7')).toMatchObject({ status: 'pending', error_message: null });
    expect(shown('r8')).toMatchObject({ status: 'pending', error_message: null });
    expect(shown('r5')).toMatchObject({ status: 'failed', error_message: 'Recipient opted out of messages from this business' });
    expect(shown('r6')).toMatchObject({ status: 'duplicate', error_message: 'Duplicate Blocked' });
    expect(shown('r3')).toMatchObject({ status: 'sent', delivered_at: null, read_at: null, error_message: null });
    expect(shown('r9')).toMatchObject({ template_used: 'प्रचार_offer', campaign_name: 'त्योहार ऑफ़र' });
  });

  it('keeps each user’s reports, summary, templates and exports to themselves', async () => {
    const theirs = await list(other.client, '');
    expect(theirs.total).toBe(2);
    expect(theirs.reports.every((r) => r.template_used === 'b_secret')).toBe(true);
    expect((await list(other.client, '?template=order_update')).total).toBe(0);
    expect((await list(owner.client, '?template=b_secret')).total).toBe(0);
    expect((await list(owner.client, '?recipientNumber=919811100009')).total).toBe(0);
    const templates = await other.client.get<{ data: string[] }>('/api/whatsapp/reports/templates');
    expect(templates.body.data).toEqual(['b_secret']);
    const summary = await other.client.get<{ data: TReportsSummary }>('/api/whatsapp/reports/summary');
    expect(summary.body.data).toMatchObject({ total: 2, read: 1, failed: 1 });
    const csv = parseCsv((await download(other.client, '?export=csv')).bytes);
    expect(csv.slice(1).map((row) => row[1])).toEqual(['919811100009', '919811100001']);
  });

  it('filters by each filter alone', async () => {
    const idsOf = async (query: string) => (await list(owner.client, query)).reports.map((r) => r.id);
    const expectIds = (names: string[]) => names.map((name) => ids[name]);
    // Whole days in India, inclusive.
    expect(await idsOf('?dateFrom=2026-01-11')).toEqual(expectIds(['r17', 'r16', 'r15']));
    expect((await list(owner.client, '?dateTo=2026-01-10')).total).toBe(14);
    expect(await idsOf('?dateFrom=2026-01-10&dateTo=2026-01-10')).toEqual(expectIds(['r14', 'r13', 'r12', 'r11', 'r10', 'r9']));
    expect((await list(owner.client, '?dateFrom=2026-01-05&dateTo=2026-01-05')).total).toBe(8);
    expect((await list(owner.client, '?dateFrom=2026-01-06&dateTo=2026-01-09')).total).toBe(0);
    // Any part of the stored digits; a leading + and spaces are ignored.
    expect(await idsOf('?recipientNumber=%2B91%209811%201')).toEqual(expectIds(['r14', 'r8', 'r7', 'r6', 'r5', 'r4', 'r3', 'r2', 'r1']));
    expect((await list(owner.client, '?recipientNumber=4477')).total).toBe(5);
    expect(await idsOf('?recipientNumber=919822200003')).toEqual(expectIds(['r17']));
    expect((await list(owner.client, '?recipientNumber=9')).total).toBe(17);
    expect((await list(owner.client, '?recipientNumber=99')).total).toBe(0);
    // Without the country code, and from the middle of the number.
    expect(await idsOf('?recipientNumber=9811100001')).toEqual(expectIds(['r14', 'r1']));
    expect(await idsOf('?recipientNumber=98%2011%20100%20005')).toEqual(expectIds(['r5']));
    expect((await list(owner.client, '?recipientNumber=00900')).total).toBe(5);
    // LIKE's wildcards are not digits: refused, never matched as patterns.
    for (const wildcard of ['%25', '_', '9%251']) expect((await owner.client.get(`/api/whatsapp/reports?recipientNumber=${wildcard}`)).status).toBe(400);
    // The campaign's template name, exactly.
    expect((await list(owner.client, '?template=order_update')).total).toBe(11);
    expect(await idsOf(`?template=${encodeURIComponent('प्रचार_offer')}`)).toEqual(expectIds(['r14', 'r13', 'r12', 'r11', 'r10', 'r9']));
    expect((await list(owner.client, '?template=order')).total).toBe(0);
    // Statuses as reports group them.
    const byStatus = { sent: ['r3'], delivered: ['r15', 'r2'], read: ['r16', 'r14', 'r1'], failed: ['r17', 'r13', 'r12', 'r11', 'r10', 'r9', 'r5', 'r4'], duplicate: ['r6'], pending: ['r8', 'r7'] };
    for (const [status, names] of Object.entries(byStatus)) {
      const page = await list(owner.client, `?status=${status}`);
      expect(page.reports.map((r) => r.id), status).toEqual(expectIds(names));
      expect(page.total).toBe(names.length);
      expect(page.reports.every((r) => r.status === status)).toBe(true);
    }
    // Unset values and 'all' are no filter.
    expect((await list(owner.client, '?status=all&template=all&recipientNumber=&dateFrom=&dateTo=all')).total).toBe(17);
  });

  it('combines filters', async () => {
    const totalOf = async (query: string) => (await list(owner.client, query)).total;
    expect(await totalOf('?template=order_update&status=failed')).toBe(3);
    expect(await totalOf('?template=order_update&status=failed&dateTo=2026-01-10')).toBe(2);
    expect(await totalOf('?template=order_update&status=read&recipientNumber=91981110')).toBe(1);
    expect(await totalOf('?dateFrom=2026-01-10&dateTo=2026-01-10&status=failed&recipientNumber=4477')).toBe(5);
    expect(await totalOf(`?dateFrom=2026-01-10&template=${encodeURIComponent('प्रचार_offer')}&status=read&recipientNumber=9198`)).toBe(1);
    expect(await totalOf('?dateFrom=2026-01-11&template=order_update&status=pending')).toBe(0);
  });

  it("tests the user's numbers once for a rare recipient filter: the count and the page seek the numbers it matched", async () => {
    class CountingReportDb extends ReportDb {
      numberScans = 0;
      override arrays<T extends unknown[]>(sql: string, params: readonly unknown[]): Promise<T[]> {
        // The number test of either database (instr on SQLite, LIKE on PostgreSQL).
        if (/instr\(|recipient like \?/.test(sql)) this.numberScans += 1;
        return super.arrays<T>(sql, params);
      }
    }
    const rdb = new CountingReportDb(server.db);
    const positions = new ReportPositions(rdb);
    const service = new ReportService({ db: server.db, log: server.logger });
    for (const [query, expected] of [
      ['9811100001', ['r14', 'r1']],
      ['4477', ['r13', 'r12', 'r11', 'r10', 'r9']],
    ] as const) {
      rdb.numberScans = 0;
      const plan = await planQuery(rdb, service.filterFor(owner.user.id, { recipientNumber: query }));
      const { total, current } = await positions.total(plan);
      const keys = await positions.pageKeys(plan, 0, 50, current);
      expect({ total, ids: keys.map((key) => key.id) }).toEqual({ total: expected.length, ids: expected.map((name) => ids[name]) });
      expect(rdb.numberScans).toBe(1);
    }
  });

  it.skipIf(testDatabaseKind() !== 'sqlite')("finds numbers on SQLite through the trigram index and the messages not yet in it by primary key, never by testing each of the user's numbers", async () => {
    const plan = (await server.db.raw(`explain query plan ${SQLITE_NUMBERS_SQL}`, ['%98111%', owner.user.id, owner.user.id, '98111'])) as { detail: string }[];
    const steps = plan.map((step) => step.detail);
    expect(steps).toEqual(expect.arrayContaining([expect.stringMatching(/^SCAN s VIRTUAL TABLE INDEX/), 'SEARCH m USING INTEGER PRIMARY KEY (rowid=?)', 'SEARCH m USING INTEGER PRIMARY KEY (rowid>?)']));
    expect(steps.filter((step) => /messages_user_/.test(step))).toEqual([]);
  });

  it.skipIf(testDatabaseKind() !== 'sqlite')('indexes new messages for that search on SQLite a batch at a time past its mark, each found before and after', async () => {
    const sender = await signedInClient(server);
    await server.services.recipientNumbers.stop();
    try {
      await server.services.recipientNumbers.drain();
      const mark = async () => Number(((await server.db('recipient_search_progress').first('lastMessageId')) as { lastMessageId: number }).lastMessageId);
      const before = await mark();
      const rowIds = await seedCampaign(sender.user, 'order_update', 'Indexed in batches', '2026-03-01T04:30:00.000Z', [
        { recipient: '919844400001', status: 'sent' },
        { recipient: '919844400002', status: 'sent' },
        { recipient: '919844400003', status: 'read' },
        { recipient: '919844400001', status: 'delivered' },
        { recipient: '919844400005', status: 'failed', error: 'Number not on WhatsApp' },
      ]);
      const found = async (digits: string) => (await list(sender.client, `?recipientNumber=${digits}`)).total;
      const counts = async () => [await found('98444000'), await found('919844400001'), await found('400003')];
      expect(await counts()).toEqual([5, 2, 1]);
      const worker = new RecipientNumberIndex({ db: server.db, log: server.logger, batchMessages: 2 });
      const taken: number[] = [];
      const marks: number[] = [];
      for (let batch = await worker.moveBatch(); batch > 0; batch = await worker.moveBatch()) {
        taken.push(batch);
        marks.push(await mark());
        // Part indexed, part pending: every message is found all the same.
        expect(await counts()).toEqual([5, 2, 1]);
      }
      expect(Math.min(...rowIds)).toBeGreaterThan(before);
      expect(taken).toEqual([2, 2, 1]);
      expect(marks).toEqual([rowIds[1], rowIds[3], rowIds[4]]);
      await server.db.raw("insert into messages_recipient_search (messages_recipient_search, rank) values ('integrity-check', 1)");
    } finally {
      server.services.recipientNumbers.start();
    }
  });

  it.skipIf(testDatabaseKind() !== 'postgres')('takes the pending ranges for that search on PostgreSQL, many small ones at once and a few large ones, each message found before and after', async () => {
    const sender = await signedInClient(server);
    await server.services.recipientNumbers.stop();
    try {
      await server.services.recipientNumbers.drain();
      // Five campaigns of two messages: one pending range of two each.
      for (let campaign = 1; campaign <= 5; campaign++) {
        await seedCampaign(sender.user, 'order_update', `Pending range ${campaign}`, '2026-03-02T04:30:00.000Z', [
          { recipient: `91984550000${campaign}`, status: 'sent' },
          { recipient: `91984551000${campaign}`, status: 'read' },
        ]);
      }
      const pending = async () => Number(((await server.db('recipient_numbers_pending').count({ n: '*' })) as { n: number | string }[])[0]?.n);
      expect(await pending()).toBe(5);
      const found = async (digits: string) => (await list(sender.client, `?recipientNumber=${digits}`)).total;
      const counts = async () => [await found('9845500'), await found('9845510'), await found('919845500003')];
      expect(await counts()).toEqual([5, 5, 1]);
      // Ranges of two count as large here, taken two a batch.
      const worker = new RecipientNumberIndex({ db: server.db, log: server.logger, smallRangeMessages: 2, batchRanges: 2 });
      const taken: number[] = [];
      for (let batch = await worker.moveBatch(); batch > 0; batch = await worker.moveBatch()) {
        taken.push(batch);
        expect(await counts()).toEqual([5, 5, 1]);
      }
      expect(taken).toEqual([2, 2, 1]);
      expect(await pending()).toBe(0);
      // With the shipped limits the same small ranges go at once: more than the four large ones a batch takes.
      for (let campaign = 6; campaign <= 10; campaign++) {
        await seedCampaign(sender.user, 'order_update', `Pending range ${campaign}`, '2026-03-02T04:30:00.000Z', [{ recipient: `9198455200${String(campaign).padStart(2, '0')}`, status: 'sent' }]);
      }
      expect(await new RecipientNumberIndex({ db: server.db, log: server.logger }).moveBatch()).toBe(5);
      expect(await found('98455200')).toBe(5);
      // A range another batch holds is skipped, not waited for: two takers share the work.
      for (let campaign = 11; campaign <= 12; campaign++) {
        await seedCampaign(sender.user, 'order_update', `Pending range ${campaign}`, '2026-03-02T04:30:00.000Z', [{ recipient: `9198455300${campaign}`, status: 'sent' }]);
      }
      await server.db.transaction(async (trx) => {
        const [held] = (await trx.raw('select ctid from recipient_numbers_pending limit 1 for update')).rows as { ctid: string }[];
        expect(held).toBeDefined();
        expect(await new RecipientNumberIndex({ db: server.db, log: server.logger }).moveBatch()).toBe(1);
      });
      expect(await new RecipientNumberIndex({ db: server.db, log: server.logger }).moveBatch()).toBe(1);
      expect(await found('98455300')).toBe(2);
    } finally {
      server.services.recipientNumbers.start();
    }
  });

  it('pages by page and limit, with exact totals at the edges', async () => {
    const pages = await Promise.all([1, 2, 3, 4, 5].map((page) => list(owner.client, `?page=${page}&limit=5`)));
    expect(pages.map((p) => p.reports.length)).toEqual([5, 5, 5, 2, 0]);
    expect(pages.every((p) => p.total === 17 && p.totalPages === 4 && p.limit === 5)).toBe(true);
    expect(pages.flatMap((p) => p.reports.map((r) => r.id))).toEqual(newestFirst);
    const oneByOne: number[] = [];
    for (let page = 1; page <= 17; page++) oneByOne.push(...(await list(owner.client, `?page=${page}&limit=1`)).reports.map((r) => r.id));
    expect(oneByOne).toEqual(newestFirst);
    expect(await list(owner.client, '?page=2&limit=17')).toMatchObject({ reports: [], total: 17, totalPages: 1 });
    expect(await list(other.client, '?status=pending')).toMatchObject({ reports: [], total: 0, totalPages: 1 });
  });

  it('counts a send whose outcome is unknown as pending in the list, the filter, the summary and the export', async () => {
    // A message the provider may or may not have taken waits for its status webhook: it is not an outcome yet.
    const waiting = await signedInClient(server);
    await seedCampaign(waiting.user, 'order_update', 'Unknown outcome', '2026-02-01T04:30:00.000Z', [
      { recipient: '919833300001', status: 'unknown', error: 'Provider did not answer in time' },
      { recipient: '919833300002', status: 'queued' },
      { recipient: '919833300003', status: 'delivered', deliveredAt: '2026-02-01T05:00:00.000Z' },
    ]);
    const pending = await list(waiting.client, '?status=pending');
    expect(pending.total).toBe(2);
    expect(pending.reports.map((r) => [r.recipient_number, r.status, r.error_message])).toEqual([
      ['919833300002', 'pending', null],
      ['919833300001', 'pending', null],
    ]);
    const summary = await waiting.client.get<{ data: TReportsSummary }>('/api/whatsapp/reports/summary');
    expect(summary.body.data).toMatchObject({ total: 3, pending: 2, delivered: 1 });
    const csv = parseCsv((await download(waiting.client, '?export=csv&status=pending')).bytes);
    expect(csv.slice(1).map((row) => [row[1], row[2]])).toEqual([
      ['919833300002', 'PENDING'],
      ['919833300001', 'PENDING'],
    ]);
  });

  it('refuses bad paging, dates and recipient numbers with 400', async () => {
    const bad = async (query: string) => (await owner.client.get<{ error: string; field?: string }>(`/api/whatsapp/reports${query}`));
    for (const query of ['?page=0', '?limit=0', '?limit=501', '?page=x', '?status=lost', '?export=pdf', '?dateFrom=31-01-2026']) {
      expect((await bad(query)).status, query).toBe(400);
    }
    expect((await bad('?dateFrom=2026-02-30')).body).toMatchObject({ error: messages.reports.dateInvalid, field: 'dateFrom' });
    expect((await bad('?dateFrom=2026-01-11&dateTo=2026-01-10')).body).toMatchObject({ error: messages.reports.dateRangeInvalid, field: 'dateTo' });
    expect((await bad('?recipientNumber=98abc')).body).toMatchObject({ error: messages.reports.recipientDigits, field: 'recipientNumber' });
  });

  it('sums up statuses with delivery and read rates', async () => {
    const res = await owner.client.get<{ success: boolean; data: TReportsSummary }>('/api/whatsapp/reports/summary');
    expect(res.status).toBe(200);
    // shared/figures.ts: sent includes delivered and read (1 + 2 + 3), delivered includes read (2 + 3); failed
    // is the provider's 7 and the opted-out one. Attempted = sent 6 + provider failures 7 = 13 (the
    // opted-out message was never attempted): delivery 5 / 13, read 3 / 13.
    expect(res.body).toEqual({ success: true, data: { total: 17, sent: 6, delivered: 5, read: 3, failed: 8, cancelled: 0, duplicate: 1, pending: 2, deliveryRate: 38.5, readRate: 23.1 } });
    const { client } = await signedInClient(server);
    const empty = await client.get<{ data: TReportsSummary }>('/api/whatsapp/reports/summary');
    expect(empty.body.data).toEqual({ total: 0, sent: 0, delivered: 0, read: 0, failed: 0, cancelled: 0, duplicate: 0, pending: 0, deliveryRate: 0, readRate: 0 });
  });

  it('lists the templates the user sent, sorted', async () => {
    const res = await owner.client.get<{ success: boolean; data: string[] }>('/api/whatsapp/reports/templates');
    expect(res.body).toEqual({ success: true, data: ['order_update', 'प्रचार_offer'] });
  });

  it('exports CSV with the table’s columns, quoted and with formulas neutralised', async () => {
    const file = await download(owner.client, '?export=csv');
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename="whatsapp_reports_all_${istToday()}.csv"`);
    const rows = parseCsv(file.bytes);
    expect(rows[0]).toEqual(HEADINGS);
    const neutralised = ownerCells.map((cells) => cells.map((cell) => (/^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell)));
    expect(rows.slice(1).map((row) => row.slice(0, 6))).toEqual(neutralised);
    expect(rows.slice(1).map((row) => row.slice(6))).toEqual(ownerExportExtras());
    // Quotes doubled inside quoted cells, line breaks kept inside quotes, CRLF between rows.
    const text = file.bytes.toString('utf8');
    expect(text).toContain('"Message undeliverable, ""retry"" later"');
    expect(text).toContain('"\'=HYPERLINK(""http://x.example"",""y"")"');
    expect(text).toContain('"Line one\nLine two",');
    expect(text.split('\r\n')[1]).toBe(`order_update,919822200003,FAILED,Not delivered,Not read,"Line one\nLine two",Not sent,Follow-up,0.80,msg_${ids.r17}`);
  });

  it('names a filtered export and holds only the matching rows', async () => {
    const file = await download(owner.client, '?export=csv&status=failed&template=order_update');
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename="whatsapp_reports_filtered_${istToday()}.csv"`);
    expect(parseCsv(file.bytes).slice(1).map((row) => row[1])).toEqual(['919822200003', '919811100005', '919811100004']);
    const none = await download(owner.client, '?export=csv&dateFrom=2026-01-06&dateTo=2026-01-09');
    expect(parseCsv(none.bytes)).toEqual([HEADINGS]);
    expect((await download(owner.client, '?export=csv&recipientNumber=x1')).status).toBe(400);
  });

  it('exports Excel with the same rows: text cells, the cost a number and the times IST dates', async () => {
    const file = await download(owner.client, '?export=excel');
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename="whatsapp_reports_all_${istToday()}.xlsx"`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.bytes as unknown as ArrayBuffer);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual([messages.reports.sheetName]);
    const sheet = workbook.worksheets[0] as ExcelJS.Worksheet;
    const rows: string[][] = [];
    sheet.eachRow((row) => {
      const cells: string[] = [];
      for (let column = 1; column <= HEADINGS.length; column++) {
        const cell = row.getCell(column);
        // Read back as the CSV writes it: a number as the cost's text, a date as IST wall-clock text.
        if (cell.type === ExcelJS.ValueType.Number) {
          expect(column, cell.address).toBe(9);
          cells.push(formatReportCost(cell.value as number));
        } else if (cell.type === ExcelJS.ValueType.Date) {
          expect([4, 5, 7], cell.address).toContain(column);
          cells.push((cell.value as Date).toISOString().slice(0, 19).replace('T', ' '));
        } else {
          expect(cell.type, `${cell.address} ${String(cell.value)}`).toBe(ExcelJS.ValueType.String);
          cells.push(cell.value as string);
        }
      }
      if (row.number > 1) expect(row.getCell(9).type).toBe(ExcelJS.ValueType.Number);
      rows.push(cells);
    });
    expect(rows[0]).toEqual(HEADINGS);
    expect(rows.slice(1).map((row) => row.slice(0, 6))).toEqual(ownerCells);
    expect(rows.slice(1).map((row) => row.slice(6))).toEqual(ownerExportExtras());
    const filtered = await download(owner.client, `?export=excel&template=${encodeURIComponent('प्रचार_offer')}`);
    expect(filtered.headers.get('content-disposition')).toBe(`attachment; filename="whatsapp_reports_filtered_${istToday()}.xlsx"`);
  });

  it('splits an Excel export across sheets past the sheet row limit', async () => {
    const reports = new ReportService({ db: server.db, log: server.logger, excelRowsPerSheet: 4 });
    const file = await reports.export(owner.user.id, { page: 1, limit: 50, export: 'excel' });
    const chunks: Buffer[] = [];
    for await (const chunk of file.stream) chunks.push(chunk as Buffer);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.concat(chunks) as unknown as ArrayBuffer);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['WhatsApp Reports', 'WhatsApp Reports 2', 'WhatsApp Reports 3', 'WhatsApp Reports 4', 'WhatsApp Reports 5']);
    expect(workbook.worksheets.map((sheet) => sheet.rowCount)).toEqual([5, 5, 5, 5, 2]);
    const recipients = workbook.worksheets.flatMap((sheet) => sheet.getRows(2, sheet.rowCount - 1)?.map((row) => row.getCell(2).value) ?? []);
    expect(recipients).toEqual(ownerCells.map((cells) => cells[1]));
    expect(workbook.worksheets.every((sheet) => JSON.stringify(sheet.getRow(1).values) === JSON.stringify([undefined, ...HEADINGS]))).toBe(true);
  });

  describe('past the exact-count limit', () => {
    let big: { client: TestClient; user: User };
    const expectedOrder = async (status?: string) => {
      const query = server.db('messages').where({ userId: big.user.id });
      if (status === 'read') query.where({ status: 'read' });
      return ((await query.orderBy([{ column: 'createdAt', order: 'desc' }, { column: 'id', order: 'desc' }]).select('id')) as { id: number | string }[]).map((r) => Number(r.id));
    };
    const manyRows = (count: number, offset: number): SeedRow[] => Array.from({ length: count }, (_, i) => ({ recipient: String(919700000000 + offset + i), status: (offset + i) % 10 === 0 ? 'failed' : 'read', error: (offset + i) % 10 === 0 ? 'Undeliverable' : undefined }));

    beforeAll(async () => {
      big = await signedInClient(server);
      await seedCampaign(big.user, 'bulk_a', 'A', '2026-02-01T04:30:00.000Z', manyRows(5_000, 0));
      await seedCampaign(big.user, 'bulk_b', 'B', '2026-02-02T04:30:00.000Z', manyRows(7_000, 5_000));
      await seedCampaign(big.user, 'bulk_a', 'C', '2026-02-03T04:30:00.000Z', manyRows(345, 12_000));
    }, 60_000);

    it('pages deep into a large result exactly, before and after new messages arrive', async () => {
      let order = await expectedOrder();
      const check = async (query: string, page: number, expected: number[]) => {
        const data = await list(big.client, `${query}${query ? '&' : '?'}page=${page}&limit=50`);
        expect(data.total, `${query} page ${page}`).toBe(expected.length);
        expect(data.reports.map((r) => r.id), `${query} page ${page}`).toEqual(expected.slice((page - 1) * 50, page * 50));
      };
      expect(order).toHaveLength(12_345);
      for (const page of [1, 2, 200, 201, 221, 230, 246, 247]) await check('', page, order);
      // A date range that holds everything has no campaign shortcut: the positions snapshot answers.
      for (const page of [247, 203, 1]) await check('?dateFrom=2026-01-01', page, order);
      let read = await expectedOrder('read');
      expect(read.length).toBeGreaterThan(10_000);
      for (const page of [223, 210, 2]) await check('?status=read', page, read);

      // Newer messages arrive on top: every position moves down by as many.
      await seedCampaign(big.user, 'bulk_b', 'D', '2026-02-04T04:30:00.000Z', manyRows(60, 20_000));
      order = await expectedOrder();
      read = await expectedOrder('read');
      for (const page of [248, 203, 1]) await check('?dateFrom=2026-01-01', page, order);
      for (const page of [224, 210]) await check('?status=read', page, read);
      // Many more: the snapshot extends over them.
      await seedCampaign(big.user, 'bulk_b', 'E', '2026-02-05T04:30:00.000Z', manyRows(6_000, 30_000));
      order = await expectedOrder();
      read = await expectedOrder('read');
      for (const page of [368, 250, 120, 1]) await check('?dateFrom=2026-01-01', page, order);
      for (const page of [332, 215]) await check('?status=read', page, read);
      for (const page of [368, 250]) await check('', page, order);
      const failed = await list(big.client, '?status=failed&page=37&limit=50');
      expect(failed.total).toBe(order.length - read.length);
      expect((await list(big.client, '?template=bulk_b')).total).toBe(13_060);
    }, 60_000);

    it('counts the summary and exports every row of a large account', async () => {
      const summary = await big.client.get<{ data: TReportsSummary }>('/api/whatsapp/reports/summary');
      const all = await expectedOrder();
      const read = await expectedOrder('read');
      expect(summary.body.data).toMatchObject({ total: all.length, read: read.length, failed: all.length - read.length });
      const rows = parseCsv((await download(big.client, '?export=csv')).bytes);
      expect(rows).toHaveLength(all.length + 1);
      const recipients = (await server.db('messages').whereIn('id', all.slice(0, 3)).select('id', 'recipient')) as { id: number; recipient: string }[];
      const recipientOf = new Map(recipients.map((r) => [Number(r.id), r.recipient]));
      expect(rows.slice(1, 4).map((row) => row[1])).toEqual(all.slice(0, 3).map((id) => recipientOf.get(id)));
    }, 60_000);

    it('lets a download cut short go without holding the database', async () => {
      for (const kind of ['csv', 'excel']) {
        const aborted = new AbortController();
        const res = await fetch(`${server.url}/api/whatsapp/reports?export=${kind}`, { headers: { Cookie: `${SESSION_COOKIE}=${big.client.cookie(SESSION_COOKIE)}` }, signal: aborted.signal });
        const reader = (res.body as ReadableStream<Uint8Array>).getReader();
        expect((await reader.read()).done).toBe(false);
        aborted.abort();
        await reader.read().catch(() => undefined);
      }
      // Every pooled connection is free again (SQLite has one): the API answers, and a whole export still completes.
      const answered = await pollUntil(() => list(big.client, '?limit=1'), (page) => page.reports.length === 1, { what: 'a report page after the aborted downloads', intervalMs: 20 });
      expect(answered.reports).toHaveLength(1);
      const sender = await server.services.senderNumbers.ensureSandbox(big.user.id);
      expect(sender.id).toEqual(expect.any(Number));
      expect(parseCsv((await download(big.client, '?export=csv&status=failed')).bytes).length).toBeGreaterThan(1_000);
    }, 60_000);
  });

  describe('after a real send', () => {
    it('reports a quick send’s outcomes from the provider’s statuses', async () => {
      const { client, user } = await signedInClient(server, { creditRupees: 10 });
      const template = await buildTemplate(server, user, { body: 'Hi {{1}}' });
      const numbers = await client.get<{ data: TSenderNumber[] }>('/api/whatsapp/numbers');
      const sent = await client.post<{ data: TCampaignAccepted }>('/api/whatsapp/quick-send', {
        phone_number_id: (numbers.body.data[0] as TSenderNumber).phone_number_id,
        template_name: template.name,
        language: 'en_US',
        recipients_text: '919855510001\n919855510000\n919855513333',
        variables: { '1': 'Asha' },
        campaign_name: 'Reports end to end',
      });
      expect(sent.status).toBe(200);
      await waitForCampaign(client, sent.body.data.campaignId, (campaign) => campaign.counts.read === 1 && campaign.counts.failed === 1 && campaign.counts.delivered === 1, { timeoutMs: 15_000 });
      const page = await list(client, '');
      expect(page.total).toBe(3);
      const byRecipient = Object.fromEntries(page.reports.map((r) => [r.recipient_number, r]));
      expect(byRecipient['919855510001']).toMatchObject({ status: 'delivered', template_used: template.name, campaign_name: 'Reports end to end', error_message: null, read_at: null });
      expect(byRecipient['919855513333']).toMatchObject({ status: 'read', error_message: null });
      expect(byRecipient['919855513333']?.delivered_at).toEqual(expect.any(String));
      expect(byRecipient['919855510000']).toMatchObject({ status: 'failed', error_message: expect.any(String) });
      const summary = await client.get<{ data: TReportsSummary }>('/api/whatsapp/reports/summary');
      expect(summary.body.data).toEqual({ total: 3, sent: 2, delivered: 2, read: 1, failed: 1, cancelled: 0, duplicate: 0, pending: 0, deliveryRate: 66.7, readRate: 33.3 });
      expect((await client.get<{ data: string[] }>('/api/whatsapp/reports/templates')).body.data).toEqual([template.name]);
      const csv = parseCsv((await download(client, '?export=csv&status=failed')).bytes);
      expect(csv.slice(1).map((row) => [row[1], row[2]])).toEqual([['919855510000', LABEL.failed]]);
    });
  });
});
